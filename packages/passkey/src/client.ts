/**
 * @module
 * `@gatehouse/passkey/client`: the plugin's client half for
 * `@gatehouse/react` (docs/passkeys.md#client). `passkeyClient()` adds
 * `client.passkey.addPasskey({ name?, password? })` and `client.signIn.passkey({ autoFill? })`,
 * which run the WebAuthn ceremony in the browser; `client.passkey.listUserPasskeys`,
 * `updatePasskey` and `deletePasskey`; and the `passkeys` store, hence
 * `client.usePasskeys()`: the signed-in user's passkeys, reloaded after
 * each change and emptied on sign-out.
 *
 * Nothing of the server plugin is imported at run time (its types only),
 * and @simplewebauthn/browser is imported on the first ceremony.
 */
import type { CoreErrorCode } from '@gatehouse/core'
import type { CallOptions, CallResult, ClientErrorCode, ClientPlugin, SessionState } from '@gatehouse/react'
import type { userShape } from '@gatehouse/react/client'
import type { output } from 'zod/mini'
import { addPasskey, signInPasskey, type AddPasskeyInput, type PasskeyClientErrorCode, type SignInPasskeyInput } from './client/ceremony.js'
import { passkeyRoutes, type PasskeyRoutes, type passkeyShape } from './client/routes.js'
import type { PasskeyErrorCode } from './errors.js'
import type { PasskeyEndpoints } from './routes/index.js'

export { PasskeyClientErrors } from './client/ceremony.js'
export type { AddPasskeyInput, PasskeyClientErrorCode, SignInPasskeyInput } from './client/ceremony.js'
export { passkeyRoutes } from './client/routes.js'
export type { PasskeyRoutes } from './client/routes.js'

const passkeyStores = {
  passkeys: { route: passkeyRoutes.passkey.listUserPasskeys, sessionKey: (current: SessionState | null) => current?.user.id ?? null },
} as const

type Code = PasskeyErrorCode | PasskeyClientErrorCode | CoreErrorCode | ClientErrorCode

/** A passkey as the client sees it (createdAt revived as a Date). */
export type ClientPasskey = output<typeof passkeyShape>

export type PasskeyActions = {
  readonly passkey: {
    /**
     * Registers a passkey for the signed-in user: the new passkey. Needs a fresh session, and `password` for an
     * account with one, or a session that passed the account's second factor recently (docs/passkeys.md#registering-a-passkey).
     */
    readonly addPasskey: (input?: AddPasskeyInput, options?: CallOptions) => Promise<CallResult<ClientPasskey, Code>>
  }
  readonly signIn: {
    /** Signs in with a passkey: the new session's token and user; the session store reloads. */
    readonly passkey: (
      input?: SignInPasskeyInput,
      options?: CallOptions,
    ) => Promise<CallResult<{ token: string; user: output<typeof userShape> }, Code>>
  }
}

export type PasskeyClient = ClientPlugin<'passkey', PasskeyEndpoints, PasskeyRoutes, typeof passkeyStores, PasskeyErrorCode | PasskeyClientErrorCode, PasskeyActions>

/**
 * The data of a call is what the route's output schema let through: the
 * actions' declared result types name those schemas' outputs.
 */
function typed<T>(result: Promise<CallResult<unknown>>): Promise<CallResult<T, Code>> {
  return result as Promise<CallResult<T, Code>>
}

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { passkeyClient } from '@gatehouse/passkey/client'
 *
 * const client = createAuthClient({ plugins: [passkeyClient()] })
 * await client.passkey.addPasskey({ name: 'Laptop' })
 * const { data, error } = await client.signIn.passkey()
 * function Passkeys() {
 *   const { data } = client.usePasskeys()
 *   return <ul>{data?.map((passkey) => <li key={passkey.id}>{passkey.name ?? 'Passkey'}</li>)}</ul>
 * }
 */
export function passkeyClient(): PasskeyClient {
  return {
    id: 'passkey',
    routes: passkeyRoutes,
    stores: passkeyStores,
    actions: (context) => ({
      passkey: { addPasskey: (input, options) => typed(addPasskey(context, input, options)) },
      signIn: { passkey: (input, options) => typed(signInPasskey(context, input, options)) },
    }),
  }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `passkey()`.
  interface ClientPluginRegistry {
    passkey: PasskeyClient
  }
}
