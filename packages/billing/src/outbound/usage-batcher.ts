/**
 * @module
 * Usage events, batched (docs/billing.md#usage-events). Events ingested
 * within a short window (`usage.batchWindowMs`) are sent in one
 * `events.ingest` call, and a batch that reaches `usage.maxBatchSize` is
 * sent at once. Each caller waits for its batch: it learns whether the
 * platform took the event, and a failure is its 502/503, so it can send
 * the event again. Every event carries an external id, the platform's
 * deduplication key, so an event sent twice (a retried batch, a retried
 * request with the same `idempotencyKey`) is counted once.
 */
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
  /** Resolves once the batch holding the event was accepted; rejects with its batch's error. */
  ingest(event: UsageEvent): Promise<void>
  /** Sends what is waiting now. */
  flush(): Promise<void>
}

interface Waiting {
  readonly event: UsageEvent
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

/**
 * @example
 * const batcher = createUsageBatcher({ platform, windowMs: 200, maxBatchSize: 100 })
 * await batcher.ingest({ name: 'api_call', externalCustomerId: user.id, externalId, timestamp: now, metadata: {} })
 */
export function createUsageBatcher(options: { platform: Platform; windowMs: number; maxBatchSize: number }): UsageBatcher {
  let waiting: Waiting[] = []
  let timer: ReturnType<typeof setTimeout> | undefined

  const send = async (batch: Waiting[]) => {
    try {
      // The same id twice in one call would be one event: the first caller's copy goes.
      const unique = new Map(batch.map((item) => [item.event.externalId, item.event]))
      await options.platform.ingestEvents([...unique.values()])
      for (const item of batch) item.resolve()
    } catch (error) {
      for (const item of batch) item.reject(error)
    }
  }

  const flush = async () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    const batches: Waiting[][] = []
    while (waiting.length > 0) batches.push(waiting.splice(0, options.maxBatchSize))
    waiting = []
    await Promise.all(batches.map(send))
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
