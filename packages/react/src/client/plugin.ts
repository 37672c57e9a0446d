/**
 * @module
 * The client plugin contract: how a server plugin ships its client half.
 * A client plugin is a plain object: its routes (a table like core's), the
 * stores its hooks read, and, for the type checker only, the server
 * plugin's endpoint map and error codes. It holds no code of the server
 * plugin, so a browser bundle never pulls server code in.
 *
 * For `createAuthClient<typeof auth>()`, where the client's types come from
 * the server's options, a plugin package also registers its client half under
 * its server plugin's id (see `ClientPluginRegistry`).
 */
import type { CallResult } from './errors.js'
import type { ClientRoute, RouteTable } from './route.js'
import type { CallOptions } from './transport.js'

/** The session as stores see it: who is signed in, and the session's own fields (an active organization, say). */
export interface SessionState {
  readonly session: { readonly id: string; readonly [field: string]: unknown }
  readonly user: { readonly id: string; readonly [field: string]: unknown }
}

/**
 * A store: the answer of one GET route, shared by every hook that reads it.
 * `sessionKey` says which session the data belongs to: when the key changes
 * (another user, another active organization) the store refetches; when it is
 * null there is nothing to fetch (signed out, nothing active) and the data is null.
 *
 * @example
 * const listOrganizations = { route: routes.organization.list, sessionKey: (current) => current?.user.id ?? null }
 */
export interface StoreDefinition {
  readonly route: ClientRoute
  readonly sessionKey: (current: SessionState | null) => string | null
}

export type StoreTable = { readonly [name: string]: StoreDefinition }

/**
 * What a plugin's actions are given: the client's own call of a route, which
 * also refreshes the stores the route signals.
 */
export interface ActionContext {
  call(route: ClientRoute, input?: unknown, options?: CallOptions): Promise<CallResult<unknown>>
}

/**
 * Calls a plugin makes of several steps, by group and name, mounted beside
 * the route calls (`client.passkey.addPasskey`, `client.signIn.passkey`):
 * for flows that run browser code between two requests, like a WebAuthn ceremony.
 */
export type ActionTable = { readonly [group: string]: { readonly [action: string]: (...args: never[]) => unknown } }

/**
 * @example
 * const notesClient = (): ClientPlugin<'notes', NotesEndpoints, typeof routes, {}, NotesErrorCode> => ({ id: 'notes', routes })
 */
export interface ClientPlugin<
  Id extends string = string,
  Endpoints = unknown,
  Routes extends RouteTable = RouteTable,
  Stores extends StoreTable = StoreTable,
  ErrorCode extends string = string,
  Actions extends ActionTable = {},
  SignInChallenge = never,
  UserInput = {},
> {
  /** The server plugin's id. */
  readonly id: Id
  /** Names to routes; names must not clash with core's or another plugin's. */
  readonly routes: Routes
  /** Each becomes `client.$stores.<name>` and, in React, `client.use<Name>()`. */
  readonly stores?: Stores
  /** Multi-step calls, made once per client; names must not clash with routes or other actions. */
  readonly actions?: (context: ActionContext) => Actions
  /**
   * Types only, never set at run time: the server plugin's endpoints and error codes, and
   * the answer its `signInChallenge` gives a password sign-in instead of a session
   * (`{ twoFactorRedirect: true }`), which `client.signIn.email` may then resolve to, and the
   * user fields its `userInput` takes at sign-up and update-user (`{ username?: string }`).
   */
  readonly $types?: {
    readonly endpoints: Endpoints
    readonly errorCode: ErrorCode
    readonly signInChallenge?: SignInChallenge
    readonly userInput?: UserInput
  }
}

export type AnyClientPlugin = ClientPlugin<string, unknown, RouteTable, StoreTable, string, ActionTable, unknown, unknown>

/**
 * Client halves by server plugin id, filled in by plugin packages through
 * declaration merging, so `createAuthClient<typeof auth>()` can tell which
 * client plugins the server's plugins need:
 *
 * @example
 * declare module '@gatehouse/react' {
 *   interface ClientPluginRegistry {
 *     organization: OrganizationClient
 *   }
 * }
 */
// Empty by design: plugin packages add their entries by declaration merging.
export interface ClientPluginRegistry {}
