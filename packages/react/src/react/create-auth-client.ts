/**
 * @module
 * `createAuthClient` for React: the client of `@gatehouse/react/client`
 * plus one hook per store, named after it: `useSession()` for core's
 * session, `useActiveOrganization()` and the like for the stores plugins
 * declare. Each returns `{ data, error, isPending, refetch }`. And
 * `<client.InitialState>`, which hands data rendered on the server (the
 * request's session) to every hook below it, on the server and on the client.
 */
import { createContext, createElement, useContext, type ReactElement, type ReactNode } from 'react'
import {
  buildClient,
  type ClientFromPlugins,
  type ClientFromServer,
  type ClientOptions,
  type ServerClientArgs,
} from '../client/create-client.js'
import type { ClientHalvesImported, NoClientHalvesNeeded, ServerLike } from '../client/infer.js'
import type { AnyClientPlugin } from '../client/plugin.js'
import type { QueryStore } from '../client/query-store.js'
import { useStore, type HookOptions, type QueryState } from './use-store.js'

type HookName<Name extends string> = `use${Capitalize<Name>}`

type DataOf<S> = S extends QueryStore<infer Data, string> ? Data : never

/** `$stores.session` becomes `useSession`, `$stores.activeOrganization` `useActiveOrganization`. */
export type StoreHooks<Stores> = {
  readonly [Name in keyof Stores & string as HookName<Name>]: Stores[Name] extends QueryStore<infer Data, infer Code>
    ? (options?: HookOptions<Data>) => QueryState<Data, Code>
    : never
}

/** Data rendered on the server, by store name: `session`, `activeOrganization`, ... */
export type InitialStateProps<Stores> = { readonly [Name in keyof Stores]?: DataOf<Stores[Name]> } & {
  readonly children?: ReactNode
}

export type ReactClient<Client extends { readonly $stores: object }> = Client &
  StoreHooks<Client['$stores']> & {
    /**
     * Gives every hook below it this data to start from: what the server
     * rendered with, and what the client hydrates with, without a request.
     */
    readonly InitialState: (props: InitialStateProps<Client['$stores']>) => ReactElement
  }

/**
 * @example
 * import type { auth } from '../server/auth'
 * export const client = createAuthClient<typeof auth>({ plugins: [organizationClient()] })
 *
 * function Avatar() {
 *   const { data, isPending } = client.useSession()
 *   if (isPending) return null
 *   return data ? <img src={data.user.image ?? '/anonymous.svg'} alt={data.user.name} /> : <SignInLink />
 * }
 */
export function createAuthClient<const P extends readonly AnyClientPlugin[] = []>(
  options?: ClientOptions<P>,
): ReactClient<ClientFromPlugins<P>>
// The `this` types never hold at a call that forgot a client half: tsc then prints them, and they name the fix.
export function createAuthClient<A extends ServerLike>(this: NoClientHalvesNeeded<A>): ReactClient<ClientFromServer<A>>
export function createAuthClient<A extends ServerLike>(
  this: ClientHalvesImported<A>,
  ...args: ServerClientArgs<A>
): ReactClient<ClientFromServer<A>>
export function createAuthClient(options: ClientOptions = {}): object {
  const client = buildClient(options)
  const initialState = createContext<Readonly<Record<string, unknown>>>({})
  const extras: Record<string, unknown> = {
    InitialState: ({ children, ...data }: { readonly children?: ReactNode; readonly [store: string]: unknown }) =>
      createElement(initialState.Provider, { value: data }, children),
  }
  for (const [name, store] of Object.entries(client.$stores)) {
    const hook = `use${name.charAt(0).toUpperCase()}${name.slice(1)}`
    extras[hook] = (hookOptions: HookOptions<unknown> = {}) => {
      const provided = useContext(initialState)
      // The hook's own initialData wins; null (signed out on the server) counts as data.
      const fromProvider = Object.hasOwn(provided, name) ? { initialData: provided[name] } : {}
      return useStore(store, hookOptions.initialData !== undefined ? hookOptions : fromProvider)
    }
  }
  for (const name of Object.keys(extras)) {
    if (Object.hasOwn(client, name)) throw new Error(`"${name}" is already taken by a route`)
  }
  return Object.assign(client, extras)
}
