/**
 * @module
 * The client's types, taken from the server's: each route names its
 * endpoint's `auth.api` key, and the call's input and output are that
 * endpoint's (its body for POST, its query for GET; its result with the
 * additional user and session fields). The client's shape is a flat mapped
 * type over the route tables, one level of groups at most; plugin lists are
 * walked as short tuples. No path string is ever parsed at the type level,
 * which keeps a client with every plugin cheap to type-check
 * (bench/client-types.mjs measures it).
 */
import type {
  AuthEndpoints,
  CoreEndpoints,
  CoreErrorCode,
  EndpointBody,
  EndpointQuery,
  EndpointResult,
  FieldDefinition,
  GatehouseOptions,
  SessionFields,
  UserFields,
  WithFields,
} from '@gatehouse/core'
import type { output } from 'zod/v4/core'
import type { CoreRoutes } from './core-routes.js'
import type { CallResult, ClientErrorCode } from './errors.js'
import type { AnyClientPlugin, ClientPluginRegistry } from './plugin.js'
import type { QueryStore } from './query-store.js'
import type { ClientRoute } from './route.js'
import type { CallOptions } from './transport.js'

/** Everything the client's types are computed from. */
export interface ClientTypes {
  /** Endpoints by `auth.api` name. */
  readonly endpoints: object
  /** Additional user and session fields, as JSON carries them. */
  readonly user: object
  readonly session: object
  /** Additional user fields a sign-up body takes (required ones required) and an update-user body takes. */
  readonly userCreate: object
  readonly userUpdate: object
  /** Every error code a call can resolve to. */
  readonly errorCode: string
  /** What a plugin's sign-in challenge answers `signIn.email` with instead of a session (never without one). */
  readonly signInChallenge: unknown
}

/** The sign-in challenge answers of a plugin list (`{ twoFactorRedirect: true }` with two-factor). */
type PluginSignInChallenges<P> = P extends readonly [infer Head extends AnyClientPlugin, ...infer Rest]
  ? ChallengeOf<NonNullable<Head['$types']>> | PluginSignInChallenges<Rest>
  : never
type ChallengeOf<Types> = Types extends { readonly signInChallenge?: infer C } ? Exclude<C, undefined> : never

/** The user fields a plugin list's servers take at sign-up and update-user (the username plugin's `username`). */
type PluginUserInputs<P> = P extends readonly [infer Head extends AnyClientPlugin, ...infer Rest]
  ? UserInputOf<NonNullable<Head['$types']>> & PluginUserInputs<Rest>
  : {}
type UserInputOf<Types> = Types extends { readonly userInput?: infer U } ? (unknown extends U ? {} : Exclude<U, undefined>) : {}

/** The error codes of a plugin list. */
type PluginErrorCodes<P> = P extends readonly [infer Head extends AnyClientPlugin, ...infer Rest]
  ? NonNullable<Head['$types']>['errorCode'] | PluginErrorCodes<Rest>
  : never

/** The server endpoints a plugin list's client halves stand for. */
type PluginEndpoints<P> = P extends readonly [infer Head extends AnyClientPlugin, ...infer Rest]
  ? NonNullable<Head['$types']>['endpoints'] & PluginEndpoints<Rest>
  : unknown

export type ErrorCodes<P> = CoreErrorCode | ClientErrorCode | PluginErrorCodes<P>

/** Types from a list of client plugins alone: no additional fields. */
export interface PluginTypes<P> extends ClientTypes {
  readonly endpoints: CoreEndpoints & PluginEndpoints<P>
  readonly user: {}
  readonly session: {}
  readonly userCreate: PluginUserInputs<P>
  readonly userUpdate: PluginUserInputs<P>
  readonly errorCode: ErrorCodes<P>
  readonly signInChallenge: PluginSignInChallenges<P>
}

/** A Date field arrives as an ISO string: additional fields are passed through as JSON has them. */
type Json<T> = { [K in keyof T]: JsonValue<T[K]> }
type JsonValue<V> = V extends Date ? string : V

type FieldValue<F> = F extends { readonly type: 'string' }
  ? string
  : F extends { readonly type: 'number' }
    ? number
    : F extends { readonly type: 'boolean' }
      ? boolean
      : F extends { readonly type: 'date' }
        ? Date | string
        : F extends { readonly type: 'json' }
          ? object
          : unknown

type Settable<F> = { [K in keyof F as F[K] extends { readonly input: false } ? never : K]: F[K] }
type MayOmit<D> = D extends { readonly required: false } ? true : 'defaultValue' extends keyof D ? true : false
type Nullable<D> = D extends { readonly required: false } ? null : never

/** Additional user fields in a sign-up body: what the server's "{field} is required" check asks for. */
type CreateInput<F> =
  F extends Readonly<Record<string, FieldDefinition>>
    ? { -readonly [K in keyof Settable<F> as MayOmit<Settable<F>[K]> extends true ? never : K]: FieldValue<Settable<F>[K]> } & {
        -readonly [K in keyof Settable<F> as MayOmit<Settable<F>[K]> extends true ? K : never]?:
          | FieldValue<Settable<F>[K]>
          | Nullable<Settable<F>[K]>
      }
    : {}

type UpdateInput<F> =
  F extends Readonly<Record<string, FieldDefinition>>
    ? { -readonly [K in keyof Settable<F>]?: FieldValue<Settable<F>[K]> | Nullable<Settable<F>[K]> }
    : {}

type UserFieldDefinitions<O extends GatehouseOptions> = NonNullable<O['user']>['additionalFields']

/** Types from the server's options: its endpoints and plugins, its additional fields. */
export interface ServerTypes<O extends GatehouseOptions, P> extends ClientTypes {
  readonly endpoints: AuthEndpoints<O>
  readonly user: Json<UserFields<O>>
  readonly session: Json<SessionFields<O>>
  readonly userCreate: CreateInput<UserFieldDefinitions<O>> & PluginUserInputs<P>
  readonly userUpdate: UpdateInput<UserFieldDefinitions<O>> & PluginUserInputs<P>
  readonly errorCode: ErrorCodes<P>
  readonly signInChallenge: PluginSignInChallenges<P>
}

/** What `createAuthClient<typeof auth>()` accepts: anything made by `createAuth`. */
export interface ServerLike {
  readonly options: GatehouseOptions
}

/** The client halves the server's plugins need, in the server's order (those without one are skipped). */
export type ClientPluginsFor<Plugins> = Plugins extends readonly [infer Head, ...infer Rest]
  ? Head extends { readonly id: infer Id extends keyof ClientPluginRegistry }
    ? [ClientPluginRegistry[Id], ...ClientPluginsFor<Rest>]
    : ClientPluginsFor<Rest>
  : []

/**
 * How a server plugin names its client half, so a missing one can be named in
 * the compile error: `clientHalf: { name: 'organizationClient', from: '@gatehouse/organization/client' }`.
 */
export interface ClientHalfName {
  readonly name: string
  readonly from: string
}

/** How the fix names one client half: the call to add and the module it comes from. */
interface NamedHalf {
  readonly call: string
  readonly from: string
}

/**
 * The client halves of the server's plugins: those the server plugins name
 * (registered or not), and registered ones of plugins that name none.
 */
type ClientHalfNames<Plugins> = Plugins extends readonly [infer Head, ...infer Rest]
  ? Head extends { readonly clientHalf: infer Half extends ClientHalfName }
    ? [{ readonly call: `${Half['name']}()`; readonly from: Half['from'] }, ...ClientHalfNames<Rest>]
    : Head extends { readonly id: infer Id extends keyof ClientPluginRegistry & string }
      ? [{ readonly call: `the client plugin of ${Id}`; readonly from: 'its package' }, ...ClientHalfNames<Rest>]
      : ClientHalfNames<Rest>
  : []

/** Whether a server plugin names a client half that no imported module registered. */
type HasUnregistered<Plugins> = Plugins extends readonly [infer Head, ...infer Rest]
  ? Head extends { readonly clientHalf: ClientHalfName; readonly id: infer Id }
    ? Id extends keyof ClientPluginRegistry
      ? HasUnregistered<Rest>
      : true
    : HasUnregistered<Rest>
  : false

type Calls<Halves> = Halves extends readonly [infer Head extends NamedHalf, ...infer Rest]
  ? Rest extends readonly [] ? Head['call'] : `${Head['call']}, ${Calls<Rest>}`
  : ''
type Modules<Halves> = Halves extends readonly [infer Head extends NamedHalf, ...infer Rest]
  ? Rest extends readonly [] ? Head['from'] : `${Head['from']}, ${Modules<Rest>}`
  : ''

/**
 * The fix tsc shows when the client halves are missing, as the `this` type of
 * `createAuthClient`: "Pass plugins: [organizationClient()] imported from
 * @gatehouse/organization/client". A string literal type is the one place a
 * call's error prints a sentence of ours (docs/client.md#types-come-from-the-server).
 */
export type PassClientHalves<A extends ServerLike> = `Pass plugins: [${Calls<ClientHalfNames<ServerPlugins<A>>>}] imported from ${Modules<ClientHalfNames<ServerPlugins<A>>>}`

/** `unknown` (any caller) when every client half the server's plugins name is registered; else the fix, as a type no call matches. */
export type ClientHalvesImported<A extends ServerLike> = HasUnregistered<ServerPlugins<A>> extends true ? PassClientHalves<A> : unknown

/** `unknown` when the server's plugins need no client half, so a call without options is fine; else the fix. */
export type NoClientHalvesNeeded<A extends ServerLike> = [] extends ClientHalfNames<ServerPlugins<A>> ? unknown : PassClientHalves<A>

export type ServerPlugins<A extends ServerLike> = NonNullable<A['options']['plugins']>

type EndpointOf<T extends ClientTypes, Name> = Name extends keyof T['endpoints'] ? T['endpoints'][Name] : never

/** The path parameters a route takes from its input (`params: ['id']`), as strings. */
type PathParams<R> = R extends { readonly params: readonly (infer Name extends string)[] } ? { [K in Name]: string } : undefined

/** The body or query, with the path parameters when the route has some (a route with no body or query takes just those). */
type WithPathParams<I, P> = [P] extends [undefined] ? I : [I] extends [undefined] ? P : I & P

type RouteInput<R, E, T extends ClientTypes> = WithPathParams<R extends { readonly method: 'POST' } ? EndpointBody<E> : EndpointQuery<E>, PathParams<R>> &
  (R extends { readonly userFields: 'create' } ? T['userCreate'] : R extends { readonly userFields: 'update' } ? T['userUpdate'] : unknown)

/** The input may be left out when there is none or every field is optional (as `auth.api` allows). */
type Args<I> = [I] extends [undefined]
  ? [input?: undefined, options?: CallOptions]
  : undefined extends I
    ? [input?: I, options?: CallOptions]
    : {} extends I
      ? [input?: I, options?: CallOptions]
      : [input: I, options?: CallOptions]

/** What a call of endpoint `E` resolves to: the handler's result, less redirects, with the additional fields. */
export type EndpointOutput<E, T extends ClientTypes> = WithFields<Exclude<EndpointResult<E>, Response>, T['user'], T['session']>

/**
 * An endpoint that builds its own Response (a 201, say) has no result type to
 * read: the call is typed by the route's `output` schema instead.
 */
type CallOutput<R, E, T extends ClientTypes> = [EndpointOutput<E, T>] extends [never]
  ? R extends { readonly output: infer Shape } ? output<Shape> : never
  : EndpointOutput<E, T>

/** A sign-in by a first factor may be held by a plugin's challenge (docs/two-factor.md#signing-in): its answer joins the union. */
type Challenged<R, T extends ClientTypes> = R extends { readonly challengeable: true } ? T['signInChallenge'] : never

export type RouteCall<R, T extends ClientTypes> = R extends { readonly endpoint: infer Name }
  ? (
      ...args: Args<RouteInput<R, EndpointOf<T, Name>, T>>
    ) => Promise<CallResult<CallOutput<R, EndpointOf<T, Name>, T> | Challenged<R, T>, T['errorCode']>>
  : never

/** A route table as functions: `client.signOut()`, `client.signUp.email({ ... })`. */
export type RouteMethods<Routes, T extends ClientTypes> = {
  readonly [K in keyof Routes]: Routes[K] extends ClientRoute
    ? RouteCall<Routes[K], T>
    : { readonly [A in keyof Routes[K]]: RouteCall<Routes[K][A], T> }
}

/** A plugin's multi-step calls, typed by the plugin itself (`client.passkey.addPasskey`). */
type PluginActions<H> = H extends { readonly actions?: (context: never) => infer Actions } ? Actions : unknown

type PluginMethods<P, T extends ClientTypes> = P extends readonly [infer Head extends AnyClientPlugin, ...infer Rest]
  ? RouteMethods<Head['routes'], T> & PluginActions<Head> & PluginMethods<Rest, T>
  : unknown

/** The data of a store: its route's output, or null when there is nothing to fetch. */
export type StoreData<S, T extends ClientTypes> = S extends { readonly route: { readonly endpoint: infer Name } }
  ? EndpointOutput<EndpointOf<T, Name>, T> | null
  : never

export type SessionData<T extends ClientTypes> = EndpointOutput<EndpointOf<T, 'getSession'>, T>

export type PluginStores<P, T extends ClientTypes> = P extends readonly [infer Head extends AnyClientPlugin, ...infer Rest]
  ? { readonly [K in keyof NonNullable<Head['stores']>]: QueryStore<StoreData<NonNullable<Head['stores']>[K], T>, T['errorCode']> } & PluginStores<Rest, T>
  : unknown

export type ClientStores<T extends ClientTypes, P> = { readonly session: QueryStore<SessionData<T>, T['errorCode']> } & PluginStores<P, T>

/** The client: core's routes, each plugin's, and the shared stores. */
export type AuthClient<T extends ClientTypes, P> = RouteMethods<CoreRoutes, T> &
  PluginMethods<P, T> & {
    /** The shared stores behind the hooks: subscribe, read, refetch, outside React too. */
    readonly $stores: ClientStores<T, P>
  }
