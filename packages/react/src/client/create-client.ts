/**
 * @module
 * `createAuthClient` without React: a typed function per route of core and
 * of each client plugin, and the shared stores (the session, plus whatever
 * the plugins declare). After a call that changes a store's data (sign-in,
 * sign-out, update-user, change-email, an organization switch) the store
 * reloads, here and in the other tabs. The session is also reloaded when the
 * window regains focus or the browser reconnects, at most once per
 * `refetchThrottleMs`. Window listeners and the tab channel are attached only
 * while some store has a reader, which never happens during server rendering.
 */
import { coreRoutes } from './core-routes.js'
import type { CallResult } from './errors.js'
import { watchFocus } from './focus.js'
import type {
  AuthClient,
  ClientHalvesImported,
  ClientPluginsFor,
  NoClientHalvesNeeded,
  PassClientHalves,
  PluginTypes,
  ServerLike,
  ServerPlugins,
  ServerTypes,
} from './infer.js'
import type { ActionTable, AnyClientPlugin, SessionState, StoreDefinition } from './plugin.js'
import { createQueryStore, PENDING, type QueryStore } from './query-store.js'
import { isRoute, type ClientRoute, type RouteTable } from './route.js'
import { browserEnvironment, createTabSync, type TabSync } from './tab-sync.js'
import { createTransport, type CallOptions, type Transport, type TransportOptions } from './transport.js'

export interface ClientOptions<P extends readonly AnyClientPlugin[] = readonly AnyClientPlugin[]> extends TransportOptions {
  /** Client halves of the server's plugins: `[organizationClient()]`. */
  readonly plugins?: P
  /** Reload the session when the window regains focus or the tab becomes visible. Default true. */
  readonly refetchOnWindowFocus?: boolean
  /** Reload the session when the browser comes back online. Default true. */
  readonly refetchOnReconnect?: boolean
  /** Focus and reconnect reloads wait until the last answer is this old. Default 5000 ms. */
  readonly refetchThrottleMs?: number
  /**
   * How the browser is sent to a provider when `signIn.social` or `linkSocial` answers
   * `{ redirect: true, url }`. Default `window.location.assign(url)`; nothing outside a browser.
   */
  readonly navigate?: (url: string) => void
}

/**
 * The options when the server's plugins need client halves: `plugins` lists
 * them, in the server's order. `Fix` is there for tsc's message, which prints
 * this type by name: `WithClientHalves<[OrganizationClient], "Pass plugins: [organizationClient()] ...">`.
 */
export type WithClientHalves<P extends readonly AnyClientPlugin[], Fix extends string> = ClientOptions<P> & {
  readonly plugins: P
} & Record<never, Fix>

/** With server types, the plugins the server's plugins need are required, in the server's order. */
export type ServerClientArgs<A extends ServerLike> = [] extends ClientPluginsFor<ServerPlugins<A>>
  ? [options?: ClientOptions<[]>]
  : [options: WithClientHalves<ClientPluginsFor<ServerPlugins<A>>, PassClientHalves<A>>]

export type ClientFromPlugins<P extends readonly AnyClientPlugin[]> = AuthClient<PluginTypes<P>, P>
export type ClientFromServer<A extends ServerLike> = AuthClient<
  ServerTypes<A['options'], ClientPluginsFor<ServerPlugins<A>>>,
  ClientPluginsFor<ServerPlugins<A>>
>

export const DEFAULT_REFETCH_THROTTLE_MS = 5_000

/**
 * Types from the client plugins given, or, with the server's type as the
 * argument, from the server (additional user and session fields included).
 *
 * @example
 * import type { auth } from './auth'
 * const client = createAuthClient<typeof auth>({ baseURL: 'https://app.example.com', plugins: [organizationClient()] })
 * const { data, error } = await client.signIn.email({ email, password })
 */
export function createAuthClient<const P extends readonly AnyClientPlugin[] = []>(options?: ClientOptions<P>): ClientFromPlugins<P>
// The `this` types never hold at a call that forgot a client half: tsc then prints them, and they name the fix.
export function createAuthClient<A extends ServerLike>(this: NoClientHalvesNeeded<A>): ClientFromServer<A>
export function createAuthClient<A extends ServerLike>(this: ClientHalvesImported<A>, ...args: ServerClientArgs<A>): ClientFromServer<A>
export function createAuthClient(options: ClientOptions = {}): object {
  return buildClient(options)
}

/**
 * The client object, untyped: `createAuthClient` (here and in the React entry) gives it its type.
 *
 * @example
 * const client = buildClient({ baseURL: 'https://app.example.com', plugins: [organizationClient()] })
 * client.$stores.session.subscribe(render)
 */
export function buildClient(options: ClientOptions): { readonly $stores: Readonly<Record<string, QueryStore<unknown>>> } {
  const transport = createTransport(options)
  const throttle = options.refetchThrottleMs ?? DEFAULT_REFETCH_THROTTLE_MS
  const now = () => Date.now()
  const stores = new Map<string, QueryStore<unknown>>()
  let tabs: TabSync | undefined

  const tabSync = (): TabSync => {
    if (!tabs) {
      const environment = browserEnvironment()
      // Clients of different servers on one page must not reload each other's stores.
      tabs = createTabSync(environment ? `gatehouse:${transport.base()}` : '', environment)
    }
    return tabs
  }

  /** The named stores may be out of date: reload them, and tell the other tabs unless the news came from one. */
  const signal = (names: readonly string[], fromOtherTab: boolean) => {
    const known = names.filter((name) => stores.has(name))
    for (const name of known) stores.get(name)?.invalidate()
    if (!fromOtherTab && known.length > 0) tabSync().publish(known)
  }

  const caller = (route: ClientRoute) => async (input?: unknown, callOptions?: CallOptions): Promise<CallResult<unknown>> => {
    const result = await transport.call(route, input, callOptions)
    // A 2xx answer of an unexpected shape (CLIENT_VALIDATION_ERROR) still means the server made the change.
    const applied = !result.error || (result.error.status >= 200 && result.error.status < 300)
    if (applied && route.signals) signal(route.signals, false)
    if (!result.error && route.followsRedirect) followRedirect(result.data, options.navigate)
    return result
  }

  const client: Record<string, unknown> = {}
  // Groups may be shared: a plugin adds `signIn.magicLink` next to core's `signIn.email`.
  const groups = new Map<string, Record<string, unknown>>()
  const mount = (table: RouteTable, owner: string) => {
    for (const [name, entry] of Object.entries(table)) {
      const group = groups.get(name)
      if (group && !isRoute(entry)) {
        for (const [action, route] of Object.entries(entry)) {
          if (Object.hasOwn(group, action)) throw new Error(`Client name "${name}.${action}" of ${owner} is already taken`)
          group[action] = caller(route)
        }
        continue
      }
      if (Object.hasOwn(client, name)) throw new Error(`Client name "${name}" of ${owner} is already taken`)
      if (isRoute(entry)) {
        client[name] = caller(entry)
      } else {
        const actions: Record<string, unknown> = Object.fromEntries(Object.entries(entry).map(([action, route]) => [action, caller(route)]))
        groups.set(name, actions)
        client[name] = actions
      }
    }
  }
  mount(coreRoutes, 'core')

  /** A plugin's actions go into its groups beside the routes, with the same clash checks. */
  const mountActions = (table: ActionTable, owner: string) => {
    for (const [name, entry] of Object.entries(table)) {
      let group = groups.get(name)
      if (!group) {
        if (Object.hasOwn(client, name)) throw new Error(`Client name "${name}" of ${owner} is already taken`)
        group = {}
        groups.set(name, group)
        client[name] = group
      }
      for (const [action, run] of Object.entries(entry)) {
        if (Object.hasOwn(group, action)) throw new Error(`Client name "${name}.${action}" of ${owner} is already taken`)
        group[action] = run
      }
    }
  }

  let stopWatching: Array<() => void> = []
  const session = createQueryStore({
    load: () => transport.call(coreRoutes.getSession, undefined),
    now,
    // Every other store follows the session, so the session is read whenever any store is.
    onActive: () => {
      stopWatching = [
        watchFocus(
          { focus: options.refetchOnWindowFocus ?? true, reconnect: options.refetchOnReconnect ?? true },
          () => session.refreshIfOlderThan(throttle),
        ),
        tabSync().listen((names) => signal(names, true)),
      ]
    },
    onIdle: () => {
      for (const stop of stopWatching) stop()
      stopWatching = []
    },
  })
  stores.set('session', session)

  const seen = new Set<string>()
  for (const plugin of options.plugins ?? []) {
    if (seen.has(plugin.id)) throw new Error(`Client plugin "${plugin.id}" is registered twice`)
    seen.add(plugin.id)
    mount(plugin.routes, `plugin "${plugin.id}"`)
    if (plugin.actions) {
      const actions = plugin.actions({ call: (route, input, callOptions) => caller(route)(input, callOptions) })
      mountActions(actions, `plugin "${plugin.id}"`)
    }
    for (const [name, definition] of Object.entries(plugin.stores ?? {})) {
      if (stores.has(name)) throw new Error(`Store "${name}" of plugin "${plugin.id}" is already taken`)
      stores.set(name, followingStore(definition, session, transport, now))
    }
  }

  return Object.assign(client, { $stores: Object.fromEntries(stores) })
}

/**
 * Sends the browser to the provider when the answer asks for it (`redirect: true` with a URL): the
 * server already left it out when the caller passed `disableRedirect`.
 */
function followRedirect(data: unknown, navigate: ((url: string) => void) | undefined): void {
  if (typeof data !== 'object' || data === null) return
  const { redirect, url } = data as { redirect?: unknown; url?: unknown }
  if (redirect !== true || typeof url !== 'string' || url === '') return
  if (navigate) navigate(url)
  else if (typeof window !== 'undefined') window.location.assign(url)
}

/**
 * A plugin store: loads its route for the current session's key, and
 * reloads when the session moves to another key (another user, another
 * active organization), including changes seen by a focus refetch or
 * reported by another tab, or made while nothing read the store. The data
 * of the previous key is never shown again: the store goes back to pending
 * until the new key's answer arrives. A null key needs no request: the data is null.
 */
function followingStore(
  definition: StoreDefinition,
  session: QueryStore<unknown>,
  transport: Transport,
  now: () => number,
): QueryStore<unknown> {
  // The key the data in the store was loaded for; undefined before the first load, and after a seed made before the session was known.
  let loadedFor: string | null | undefined
  let unfollow: (() => void) | undefined
  const currentKey = () => definition.sessionKey(sessionState(session.getSnapshot().data))
  // Holds data for another key than the session's: someone else's data (an unknown key counts as another).
  const outdated = () => store.isLoaded() && session.isLoaded() && currentKey() !== loadedFor

  const store: QueryStore<unknown> = createQueryStore({
    load: async () => {
      if (!session.isLoaded()) await session.refetch()
      const key = currentKey()
      loadedFor = key
      if (key === null) return { data: null, error: null }
      return transport.call(definition.route, undefined)
    },
    now,
    onActive: () => {
      unfollow = session.subscribe(() => {
        if (session.getSnapshot().isPending) return
        // Seeded before the session was known: the data is the first session's, the one the page was rendered for.
        if (loadedFor === undefined && store.isLoaded()) loadedFor = currentKey()
        if (outdated()) store.reset()
      })
      // The session may have moved while nothing read this store (and so nothing followed it).
      if (outdated()) store.reset()
    },
    onIdle: () => unfollow?.(),
  })
  return {
    ...store,
    // A reader's first render comes before its subscription can reset the store: it must not see the old key's data either.
    getSnapshot: () => (outdated() ? PENDING : store.getSnapshot()),
    seed(data) {
      if (!store.isLoaded() && session.isLoaded()) loadedFor = currentKey()
      store.seed(data)
    },
  }
}

/** The session data as stores read it, checked rather than cast: get-session's shape was validated on arrival. */
function sessionState(data: unknown): SessionState | null {
  if (typeof data !== 'object' || data === null || !('session' in data) || !('user' in data)) return null
  const { session, user } = data
  if (!isIdentified(session) || !isIdentified(user)) return null
  return { session, user }
}

function isIdentified(value: unknown): value is { readonly id: string; readonly [field: string]: unknown } {
  return typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string'
}
