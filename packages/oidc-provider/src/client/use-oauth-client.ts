/**
 * @module
 * `useOAuthClient(client, clientId)`: the name and icon of a client, from
 * GET /oauth2/client/:id. Not for the consent page, which shows what
 * `client.oauth2.consentRequest` answers for its consent_id (a client id
 * from the page's URL is anyone's to write: docs/oidc-provider.md#consent). The answer is public
 * and the same for every user, so it is kept per client id for the page's
 * life (one request however many components read it) and does not follow the
 * session as the plugin stores do. Built on `useStore` of `@gatehouse/react`:
 * it renders pending on the server and fetches once mounted.
 */
import { useStore, type CallResult, type QuerySnapshot, type QueryState, type QueryStore } from '@gatehouse/react'

/** Any client with this plugin's half: the hook calls `client.oauth2.clientInfo`. */
export interface ClientWithOAuthInfo<Data, Code extends string> {
  readonly oauth2: {
    readonly clientInfo: (input: { id: string }) => Promise<CallResult<Data, Code>>
  }
}

const PENDING: QuerySnapshot<never, never> = Object.freeze({ data: null, error: null, isPending: true })

// Per auth client, per client id. A WeakMap: a client dropped by the page takes its answers with it.
const cache = new WeakMap<object, Map<string, QueryStore<unknown, string>>>()

/**
 * @example
 * function ConsentHeader({ clientId }: { clientId: string }) {
 *   const { data, error, isPending } = useOAuthClient(client, clientId)
 *   if (isPending) return <p>Loading…</p>
 *   return error ? <p role="alert">{error.message}</p> : <h1>{data?.name} wants to access your account</h1>
 * }
 */
export function useOAuthClient<Data, Code extends string>(
  client: ClientWithOAuthInfo<Data, Code>,
  clientId: string,
): QueryState<Data, Code> {
  return useStore(clientInfoStore(client, clientId))
}

/**
 * The shared store of one client id, made on first use.
 *
 * @example
 * const store = clientInfoStore(client, 'c1'); await store.refetch(); store.getSnapshot().data?.name
 */
export function clientInfoStore<Data, Code extends string>(client: ClientWithOAuthInfo<Data, Code>, clientId: string): QueryStore<Data, Code> {
  let stores = cache.get(client)
  if (!stores) {
    stores = new Map()
    cache.set(client, stores)
  }
  const existing = stores.get(clientId)
  // Made below with this client's own call, so its data and codes are this client's.
  if (existing) return existing as QueryStore<Data, Code>
  const store = createStore(() => client.oauth2.clientInfo({ id: clientId }))
  stores.set(clientId, store as QueryStore<unknown, string>)
  return store
}

/** A store that loads when first read and again on `refetch`/`invalidate`; only the newest request's answer is applied. */
function createStore<Data, Code extends string>(load: () => Promise<CallResult<Data, Code>>): QueryStore<Data, Code> {
  const listeners = new Set<() => void>()
  let snapshot: QuerySnapshot<Data, Code> = PENDING
  let loaded = false
  let loadedAt = 0
  let generation = 0
  let inFlight: Promise<void> | undefined

  const publish = (next: QuerySnapshot<Data, Code>) => {
    snapshot = next
    for (const listener of listeners) listener()
  }
  const refetch = (): Promise<void> => {
    if (inFlight) return inFlight
    const mine = generation
    const request = load().then((result) => {
      if (mine !== generation) return
      loaded = true
      loadedAt = Date.now()
      publish({ data: result.data, error: result.error, isPending: false })
    })
    inFlight = request.finally(() => {
      if (inFlight === tracked) inFlight = undefined
    })
    const tracked = inFlight
    return tracked
  }
  const invalidate = () => {
    generation++
    inFlight = undefined
    if (listeners.size > 0) void refetch()
  }
  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener)
      if (!loaded && !inFlight) queueMicrotask(() => void refetch())
      return () => listeners.delete(listener)
    },
    refetch,
    invalidate,
    reset() {
      loaded = false
      publish(PENDING)
      invalidate()
    },
    seed(data) {
      if (loaded) return
      loaded = true
      publish({ data, error: null, isPending: false })
    },
    isLoaded: () => loaded,
    refreshIfOlderThan(ms) {
      if (listeners.size > 0 && Date.now() - loadedAt >= ms) void refetch()
    },
  }
}
