/**
 * @module
 * Usage events, batched (docs/billing.md#usage-events). Events ingested
 * within a short window (`usage.batchWindowMs`) are sent in one
 * `events.ingest` call, and a batch that reaches `usage.maxBatchSize` is
 * sent at once. Each caller waits for its batch: it learns whether the
 * platform took the event, and a failure is its 502/503, so it can send
 * the event again. Every event carries an external id, the platform's
 * deduplication key, so an event sent twice (a retried batch, a retried
 * request with the same `idempotencyKey`) is counted once. An event the
 * platform refuses (422) fails its own callers only (`USAGE_EVENT_REJECTED`),
 * never the others that shared its call.
 */
import { AuthError, type Logger } from '@gatehouse/core'
import { BillingErrors } from '../errors.js'
import type { Platform } from './platform.js'

export interface UsageEvent {
  readonly name: string
  readonly externalCustomerId: string
  /** The idempotency key: the platform counts one event per external id. */
  readonly externalId: string
  readonly timestamp: Date
  readonly metadata: Record<string, string | number | boolean>
}

export interface UsageBatcher {
  /** Resolves once the platform took the event; rejects with `USAGE_EVENT_REJECTED` if it refused this event, else with its call's error. */
  ingest(event: UsageEvent): Promise<void>
  /** Sends what is waiting now. */
  flush(): Promise<void>
}

interface Waiting {
  readonly event: UsageEvent
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

/** The callers of one external id: the platform counts it once, and each of them hears its outcome. */
interface Group {
  readonly event: UsageEvent
  readonly waiters: Waiting[]
}

function grouped(batch: readonly Waiting[]): Group[] {
  const groups = new Map<string, Group>()
  for (const item of batch) {
    const group = groups.get(item.event.externalId)
    // The same id twice in one call would be one event: the first caller's copy goes.
    if (group) group.waiters.push(item)
    else groups.set(item.event.externalId, { event: item.event, waiters: [item] })
  }
  return [...groups.values()]
}

/**
 * @example
 * const batcher = createUsageBatcher({ platform, logger, windowMs: 200, maxBatchSize: 100 })
 * await batcher.ingest({ name: 'api_call', externalCustomerId: user.id, externalId, timestamp: now, metadata: {} })
 */
export function createUsageBatcher(options: { platform: Platform; logger: Logger; windowMs: number; maxBatchSize: number }): UsageBatcher {
  let waiting: Waiting[] = []
  let timer: ReturnType<typeof setTimeout> | undefined

  const refuse = (group: Group) => {
    options.logger.warn('billing usage event refused by the platform', { event: group.event.name, userId: group.event.externalCustomerId })
    for (const item of group.waiters) item.reject(new AuthError(BillingErrors.USAGE_EVENT_REJECTED))
  }

  /**
   * Sends the groups in one call and answers each caller. A 422 refuses the
   * whole call (the platform validates every event before taking any), so
   * one user's bad event would fail everyone's: the events the platform
   * named are refused to their own callers and the rest sent again; when it
   * named none, the call is halved until the refused event stands alone.
   * Resending is safe: every event carries its external id.
   */
  const send = async (groups: readonly Group[]): Promise<void> => {
    let outcome: Awaited<ReturnType<Platform['ingestEvents']>>
    try {
      outcome = await options.platform.ingestEvents(groups.map((group) => group.event))
    } catch (error) {
      for (const group of groups) for (const item of group.waiters) item.reject(error)
      return
    }
    if (outcome.ok) {
      for (const group of groups) for (const item of group.waiters) item.resolve()
      return
    }
    // Only 422s are answered as values for this call; anything else is the platform misbehaving.
    if (outcome.kind !== 'invalid') {
      for (const group of groups) for (const item of group.waiters) item.reject(new AuthError(BillingErrors.PLATFORM_BAD_RESPONSE))
      return
    }
    const [only] = groups
    if (groups.length === 1 && only) return refuse(only)
    const named = new Set(outcome.items.filter((index) => index < groups.length))
    if (named.size > 0) {
      for (const index of named) refuse(groups[index] as Group)
      const rest = groups.filter((_group, index) => !named.has(index))
      if (rest.length > 0) await send(rest)
      return
    }
    const half = Math.ceil(groups.length / 2)
    await Promise.all([send(groups.slice(0, half)), send(groups.slice(half))])
  }

  const flush = async () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    const batches: Waiting[][] = []
    while (waiting.length > 0) batches.push(waiting.splice(0, options.maxBatchSize))
    waiting = []
    await Promise.all(batches.map((batch) => send(grouped(batch))))
  }

  return {
    ingest(event) {
      const accepted = new Promise<void>((resolve, reject) => waiting.push({ event, resolve, reject }))
      if (waiting.length >= options.maxBatchSize) void flush()
      else if (timer === undefined) {
        timer = setTimeout(() => void flush(), options.windowMs)
        // A pending batch must not keep a finished process alive; it is flushed within the window anyway.
        timer.unref?.()
      }
      return accepted
    },
    flush,
  }
}
