/**
 * @module
 * `@gatehouse/two-factor/client`: the plugin's client half for
 * `@gatehouse/react` (docs/two-factor.md#client). `twoFactorClient()` adds
 * `client.twoFactor.enable/disable/getTotpUri/verifyTotp/sendOtp/verifyOtp/
 * generateBackupCodes/verifyBackupCode/enableOtp/disableOtp`. When the user has two-factor on,
 * `client.signIn.email` answers `{ twoFactorRedirect: true }` instead of a
 * session; the call's data is typed as that union, and
 * `isTwoFactorRedirect(data)` tells the two answers apart.
 *
 * Nothing of the server plugin is imported at run time (its types only).
 */
import type { ClientPlugin } from '@gatehouse/react'
import { twoFactorRoutes, type TwoFactorRoutes } from './client/routes.js'
import type { TwoFactorErrorCode } from './errors.js'
import type { TwoFactorEndpoints } from './routes/index.js'

export { twoFactorRoutes, type TwoFactorRoutes }

/** The answer of a sign-in that waits for the second factor (docs/two-factor.md#signing-in). */
export interface TwoFactorRedirect {
  readonly twoFactorRedirect: true
}

/**
 * True when a sign-in answer asks for the second factor: no session exists
 * yet, and the app shows its code page (then `client.twoFactor.verifyTotp`).
 *
 * @example
 * const { data } = await client.signIn.email({ email, password })
 * if (isTwoFactorRedirect(data)) navigate('/two-factor')
 */
export function isTwoFactorRedirect(data: unknown): data is TwoFactorRedirect {
  return typeof data === 'object' && data !== null && (data as { twoFactorRedirect?: unknown }).twoFactorRedirect === true
}

/** Its `$types` say that `client.signIn.email` may answer {@link TwoFactorRedirect}: the data is typed as the union. */
export type TwoFactorClient = ClientPlugin<'two-factor', TwoFactorEndpoints, TwoFactorRoutes, {}, TwoFactorErrorCode, {}, TwoFactorRedirect>

/**
 * @example
 * import { createAuthClient } from '@gatehouse/react'
 * import { twoFactorClient } from '@gatehouse/two-factor/client'
 *
 * const client = createAuthClient({ plugins: [twoFactorClient()] })
 * const { data } = await client.twoFactor.enable({ password })
 * // show data.totpURI as a QR code, then:
 * await client.twoFactor.verifyTotp({ code: '123456' })
 */
export function twoFactorClient(): TwoFactorClient {
  return { id: 'two-factor', routes: twoFactorRoutes }
}

declare module '@gatehouse/react' {
  // Lets `createAuthClient<typeof auth>()` find this client half for a server with `twoFactor()`.
  interface ClientPluginRegistry {
    'two-factor': TwoFactorClient
  }
}
