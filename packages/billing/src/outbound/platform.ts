/**
 * @module
 * The billing platform's API through its official SDK (`@polar-sh/sdk`,
 * docs/billing.md#outbound-calls). The SDK is imported on the first call,
 * not when the plugin loads: an auth that never calls out (or starts up
 * before it does) pays nothing for it. Its standalone functions
 * (`PolarCore` plus one module per operation) keep what is loaded small.
 *
 * Every call has a per-attempt timeout (`timeoutMs`). Idempotent calls
 * (customer create keyed by external id, update, delete, event ingestion
 * keyed by each event's external id) are retried with exponential backoff
 * on 429, 5xx, timeouts and connection errors; creating a checkout or a
 * portal session is not idempotent and is retried only on 429 and 503, the
 * answers that say nothing was done. A call that still fails becomes
 * `PLATFORM_UNAVAILABLE` (503: unreachable, timed out, rate limited) or
 * `PLATFORM_BAD_RESPONSE` (502: an error status or a body the SDK's schema
 * refuses). A 422 to `events.ingest` is an answer, not a failure: it names
 * the events refused, if it can, and the usage batcher sends the others
 * again (usage-batcher.ts). The log line names the operation and the kind of failure only:
 * never the access token, the request or the platform's body.
 */
import { AuthError, type Logger } from '@gatehouse/core'
import type { PolarCore } from '@polar-sh/sdk/core.js'
import { BillingErrors } from '../errors.js'

export interface PlatformOptions {
  /** An organization access token of the billing platform. Never logged, never answered. */
  readonly accessToken: string
  /** Default `production`. */
  readonly server?: 'production' | 'sandbox' | undefined
  /** Overrides `server`: another API base URL (a loopback mock in tests). */
  readonly serverURL?: string | undefined
  /** Per attempt. Default 5000. */
  readonly timeoutMs?: number | undefined
  /** Retries with exponential backoff: the first wait, the longest wait and the time after which no retry starts. */
  readonly retry?: { readonly initialIntervalMs?: number | undefined; readonly maxIntervalMs?: number | undefined; readonly maxElapsedMs?: number | undefined } | undefined
}

/** The SDK modules the plugin uses, loaded together on the first call. */
async function loadSdk() {
  const [core, create, update, remove, checkout, session, ingest] = await Promise.all([
    import('@polar-sh/sdk/core.js'),
    import('@polar-sh/sdk/funcs/customersCreate.js'),
    import('@polar-sh/sdk/funcs/customersUpdateExternal.js'),
    import('@polar-sh/sdk/funcs/customersDeleteExternal.js'),
    import('@polar-sh/sdk/funcs/checkoutsCreate.js'),
    import('@polar-sh/sdk/funcs/customerSessionsCreate.js'),
    import('@polar-sh/sdk/funcs/eventsIngest.js'),
  ])
  return {
    PolarCore: core.PolarCore,
    customersCreate: create.customersCreate,
    customersUpdateExternal: update.customersUpdateExternal,
    customersDeleteExternal: remove.customersDeleteExternal,
    checkoutsCreate: checkout.checkoutsCreate,
    customerSessionsCreate: session.customerSessionsCreate,
    eventsIngest: ingest.eventsIngest,
  }
}

type Sdk = Awaited<ReturnType<typeof loadSdk>>
type SdkResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown }

/** What a failed call was, as far as the caller cares: handled answers are values, the rest throw. */
export type Refusal =
  | { readonly kind: 'not-found' }
  | { readonly kind: 'conflict'; readonly fields: readonly string[] }
  /** A 422 for a request that is a list (events.ingest): the positions the platform named, if any. */
  | { readonly kind: 'invalid'; readonly items: readonly number[] }

export type CallOutcome<T> = { readonly ok: true; readonly value: T } | ({ readonly ok: false } & Refusal)

const silent = { group() {}, groupEnd() {}, log() {} }

/** The SDK's errors by name: importing their classes would load the SDK. */
function describeFailure(error: unknown): { readonly unavailable: boolean; readonly reason: string } {
  const name = error instanceof Error ? error.name : 'unknown'
  const status = typeof error === 'object' && error !== null && 'statusCode' in error ? Number(error.statusCode) : null
  if (name === 'RequestTimeoutError') return { unavailable: true, reason: 'timeout' }
  if (name === 'ConnectionError' || name === 'UnexpectedClientError' || name === 'RequestAbortedError') return { unavailable: true, reason: 'unreachable' }
  if (name === 'ResponseValidationError' || name === 'SDKValidationError') return { unavailable: false, reason: 'invalid response' }
  if (status !== null && Number.isFinite(status)) return { unavailable: status === 429, reason: `status ${status}` }
  return { unavailable: false, reason: name }
}

/** Field names (`external_id`, `email`) a 422 refers to. */
function conflictFields(error: unknown): string[] {
  if (!(error instanceof Error) || error.name !== 'HTTPValidationError' || !('detail' in error) || !Array.isArray(error.detail)) return []
  return error.detail.map((issue: { loc?: unknown }) => (Array.isArray(issue.loc) ? String(issue.loc[issue.loc.length - 1]) : '')).filter(Boolean)
}

/** Positions in the request's list that a 422 names (`loc: ['body', 'events', 3, 'name']`). */
function invalidItems(error: unknown, list: string): number[] {
  if (!(error instanceof Error) || !('detail' in error) || !Array.isArray(error.detail)) return []
  const items = error.detail.map((issue: { loc?: unknown }) => {
    const loc = Array.isArray(issue.loc) ? issue.loc : []
    const at = loc.indexOf(list)
    return at >= 0 && Number.isInteger(loc[at + 1]) ? Number(loc[at + 1]) : -1
  })
  return [...new Set(items.filter((item) => item >= 0))]
}

export type Platform = ReturnType<typeof createPlatform>

/**
 * @example
 * const platform = createPlatform({ accessToken, server: 'sandbox' }, logger)
 * const { url } = await platform.createCheckout({ products: [PRO], externalCustomerId: user.id })
 */
export function createPlatform(options: PlatformOptions, logger: Logger) {
  let loading: Promise<{ sdk: Sdk; client: PolarCore }> | undefined
  const timeoutMs = options.timeoutMs ?? 5000
  const backoff = {
    initialInterval: options.retry?.initialIntervalMs ?? 200,
    maxInterval: options.retry?.maxIntervalMs ?? 2000,
    exponent: 2,
    maxElapsedTime: options.retry?.maxElapsedMs ?? 6000,
  }
  const idempotent = { retries: { strategy: 'backoff' as const, backoff, retryConnectionErrors: true }, retryCodes: ['429', '5XX'], timeoutMs }
  const once = { retries: { strategy: 'backoff' as const, backoff, retryConnectionErrors: false }, retryCodes: ['429', '503'], timeoutMs }

  const ready = () => {
    loading ??= loadSdk().then((sdk) => {
      const client = new sdk.PolarCore({
        accessToken: options.accessToken,
        ...(options.serverURL ? { serverURL: options.serverURL } : { server: options.server ?? 'production' }),
        timeoutMs,
        // A debug logger of our own: the SDK's default (console, under POLAR_DEBUG) prints request headers, the token among them.
        debugLogger: silent,
      })
      return { sdk, client }
    })
    // A failed import is tried again on the next call instead of being cached.
    loading.catch(() => (loading = undefined))
    return loading
  }

  async function call<T>(operation: string, run: (sdk: Sdk, client: PolarCore) => Promise<SdkResult<T>>, handled: readonly Refusal['kind'][] = []): Promise<CallOutcome<T>> {
    let result: SdkResult<T>
    try {
      const { sdk, client } = await ready()
      result = await run(sdk, client)
    } catch (error) {
      result = { ok: false, error }
    }
    if (result.ok) return result
    const status = typeof result.error === 'object' && result.error !== null && 'statusCode' in result.error ? result.error.statusCode : null
    if (status === 404 && handled.includes('not-found')) return { ok: false, kind: 'not-found' }
    if (status === 422 && handled.includes('invalid')) return { ok: false, kind: 'invalid', items: invalidItems(result.error, 'events') }
    if (status === 422 && handled.includes('conflict')) {
      const fields = conflictFields(result.error)
      if (fields.length > 0) return { ok: false, kind: 'conflict', fields }
    }
    const failure = describeFailure(result.error)
    logger.warn('billing platform call failed', { operation, reason: failure.reason })
    throw new AuthError(failure.unavailable ? BillingErrors.PLATFORM_UNAVAILABLE : BillingErrors.PLATFORM_BAD_RESPONSE)
  }

  return {
    createCustomer: (input: { externalId: string; email: string; name: string | null }) =>
      call('customers.create', (sdk, client) => sdk.customersCreate(client, input, idempotent), ['conflict']),
    updateCustomer: (externalId: string, update: { email: string; name: string | null }) =>
      call('customers.updateExternal', (sdk, client) => sdk.customersUpdateExternal(client, { externalId, customerUpdateExternalID: update }, idempotent), [
        'not-found',
        'conflict',
      ]),
    deleteCustomer: (externalId: string) =>
      call('customers.deleteExternal', (sdk, client) => sdk.customersDeleteExternal(client, { externalId, anonymize: true }, idempotent), ['not-found']),
    createCheckout: (input: {
      products: string[]
      externalCustomerId?: string | undefined
      customerEmail?: string | undefined
      customerName?: string | undefined
      successUrl?: string | undefined
      returnUrl?: string | undefined
      metadata?: Record<string, string | number | boolean> | undefined
    }) => call('checkouts.create', (sdk, client) => sdk.checkoutsCreate(client, input, once)),
    createPortalSession: (input: { externalCustomerId: string; returnUrl?: string }) =>
      call('customerSessions.create', (sdk, client) => sdk.customerSessionsCreate(client, input, once), ['not-found']),
    ingestEvents: (
      events: ReadonlyArray<{ name: string; externalCustomerId: string; externalId: string; timestamp: Date; metadata: Record<string, string | number | boolean> }>,
    ) => call('events.ingest', (sdk, client) => sdk.eventsIngest(client, { events: [...events] }, idempotent), ['invalid']),
  }
}
