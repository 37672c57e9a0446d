/**
 * @module
 * A store as a React hook, through `useSyncExternalStore`: every component
 * reading a store sees the same snapshot, and mounting any number of them
 * loads it once. Server rendering never subscribes, so it never fetches; it
 * renders `initialData` when given (a session read on the server) or the
 * pending state. On the client, `initialData` seeds a store that has no
 * answer yet, so hydration matches the server's HTML and needs no request.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react'
import { PENDING, type QuerySnapshot, type QueryStore } from '../client/query-store.js'

export interface HookOptions<Data> {
  /** The data rendered on the server (e.g. `await auth.api.getSession({ headers })`), to start from instead of fetching. */
  readonly initialData?: Data
}

/** What every store hook returns. */
export interface QueryState<Data, Code extends string = string> extends QuerySnapshot<Data, Code> {
  /** Loads again; concurrent calls share one request. */
  readonly refetch: () => Promise<void>
}

/**
 * @example
 * const { data, isPending } = useStore(client.$stores.session, { initialData: sessionFromServer })
 */
export function useStore<Data, Code extends string>(
  store: QueryStore<Data, Code>,
  options: HookOptions<Data> = {},
): QueryState<Data, Code> {
  const { initialData } = options
  const initial = useMemo<QuerySnapshot<Data, Code> | undefined>(
    () => (initialData === undefined ? undefined : { data: initialData, error: null, isPending: false }),
    [initialData],
  )
  const subscribe = useCallback(
    (listener: () => void) => {
      // Subscriptions happen only in the browser, after hydration: seeding here never leaks one request's session into another's render.
      if (initialData !== undefined) store.seed(initialData)
      return store.subscribe(listener)
    },
    [store, initialData],
  )
  const getSnapshot = useCallback(() => (initial && !store.isLoaded() ? initial : store.getSnapshot()), [store, initial])
  const getServerSnapshot = useCallback(() => initial ?? PENDING, [initial])
  const snapshot = useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot)
  return useMemo(() => ({ ...snapshot, refetch: store.refetch }), [snapshot, store])
}
