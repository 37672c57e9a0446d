/**
 * @module
 * One shared answer per store (the session, the active organization, ...),
 * read by any number of hooks. The store loads when its first reader
 * subscribes, never before, so rendering on the server fetches nothing.
 * Requests are deduplicated: any number of readers, or of concurrent
 * `refetch()` calls, share one request. An invalidation (after a sign-in,
 * say) starts a new request even while an older one is in flight, and the
 * older answer is dropped when it lands: only an answer that began after the
 * last invalidation is ever applied.
 */
import type { AuthClientError, CallResult } from './errors.js'

export interface QuerySnapshot<Data, Code extends string = string> {
  /** The last answer; null until one arrived, and for a 401 (nobody signed in). */
  readonly data: Data | null
  /** The last failure; null after a success. */
  readonly error: AuthClientError<Code> | null
  /** True until the first answer (or failure) arrived, and again after a `reset` until the next one. */
  readonly isPending: boolean
}

export interface QueryStore<Data, Code extends string = string> {
  /** The current snapshot; the same object until something changes (what `useSyncExternalStore` needs). */
  readonly getSnapshot: () => QuerySnapshot<Data, Code>
  /** Adds a reader. A reader of a store never loaded, or invalidated since, loads it (once the current task is done). */
  readonly subscribe: (listener: () => void) => () => void
  /** Loads again, sharing a request already in flight for the current state; resolves once the answer is applied. */
  readonly refetch: () => Promise<void>
  /** The answer may be out of date: reload now if read, else on the next subscription. */
  readonly invalidate: () => void
  /** The answer belongs to someone else now (another user signed in): drop it, back to pending, and reload as `invalidate` does. */
  readonly reset: () => void
  /** Takes `data` as the answer (an initial session rendered on the server) unless an answer already arrived. */
  readonly seed: (data: Data) => void
  /** Whether an answer (or a seed) has been applied. */
  readonly isLoaded: () => boolean
  /** Reloads if read and the last answer is at least `ms` old (refetch on focus, throttled). */
  readonly refreshIfOlderThan: (ms: number) => void
}

export interface QueryStoreOptions<Data, Code extends string> {
  readonly load: () => Promise<CallResult<Data, Code>>
  readonly now: () => number
  /** The first reader arrived / the last one left. */
  readonly onActive?: () => void
  readonly onIdle?: () => void
}

/** The snapshot of a store with no answer (yet); one frozen object, so readers comparing snapshots see no change. */
export const PENDING: QuerySnapshot<never, never> = Object.freeze({ data: null, error: null, isPending: true })

/**
 * @example
 * const session = createQueryStore({ load: () => call(coreRoutes.getSession), now: Date.now })
 * const stop = session.subscribe(() => render(session.getSnapshot()))
 */
export function createQueryStore<Data, Code extends string>(options: QueryStoreOptions<Data, Code>): QueryStore<Data, Code> {
  const listeners = new Set<() => void>()
  let snapshot: QuerySnapshot<Data, Code> = PENDING
  let loaded = false
  let stale = false
  let loadedAt = 0
  // Bumped by every invalidation: an answer to an older generation is out of date when it lands.
  let generation = 0
  let inflight: { readonly generation: number; readonly promise: Promise<void> } | null = null

  const apply = (next: QuerySnapshot<Data, Code>) => {
    snapshot = next
    for (const listener of [...listeners]) listener()
  }

  const refetch = (): Promise<void> => {
    if (inflight && inflight.generation === generation) return inflight.promise
    const started = generation
    const promise = options.load().then((result): Promise<void> | void => {
      if (inflight?.promise === promise) inflight = null
      // Invalidated while in flight: this answer may predate the change, so load again,
      // unless an answer begun after the invalidation has already been applied.
      if (started !== generation) return stale ? refetch() : undefined
      loaded = true
      stale = false
      loadedAt = options.now()
      if (result.error) {
        // 401: nobody is signed in (any more), so there is no data to keep.
        apply({ data: result.error.status === 401 ? null : snapshot.data, error: result.error, isPending: false })
      } else {
        apply({ data: result.data, error: null, isPending: false })
      }
    })
    inflight = { generation: started, promise }
    return promise
  }

  const invalidate = () => {
    generation += 1
    stale = true
    if (listeners.size > 0) void refetch()
  }

  const loadIfWanted = () => {
    if (listeners.size > 0 && (!loaded || stale)) void refetch()
  }

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener)
      if (listeners.size === 1) options.onActive?.()
      // Deferred: the readers of one render all subscribe first, so one that seeds the store
      // (with a session rendered on the server) does so before anything is fetched.
      if (!loaded || stale) queueMicrotask(loadIfWanted)
      return () => {
        if (!listeners.delete(listener)) return
        if (listeners.size === 0) options.onIdle?.()
      }
    },
    refetch,
    invalidate,
    reset() {
      // Still counted as loaded: a seed (the previous user's page data) must not come back.
      if (snapshot !== PENDING) apply(PENDING)
      invalidate()
    },
    seed(data) {
      if (loaded) return
      loaded = true
      // Rendered on the server for this page: newer than anything this store was told before.
      stale = false
      loadedAt = options.now()
      apply({ data, error: null, isPending: false })
    },
    isLoaded: () => loaded,
    refreshIfOlderThan(ms) {
      if (listeners.size === 0 || !loaded || inflight) return
      if (options.now() - loadedAt >= ms) void refetch()
    },
  }
}
