/**
 * @module
 * The end of a sign-in whose first factor was just checked and that answers
 * JSON (docs/plugins.md#signing-in-with-a-first-factor): a password at
 * /sign-in/email or /sign-in/username, a code by mail or text message. Every
 * such way in ends here, so each keeps core's rules:
 *
 * - a plugin's `signInChallenge` (a second factor) may answer instead, and
 *   then no session exists until the second step succeeds: a code or a
 *   username never skips a factor the user enrolled;
 * - the session is created under the credential version of the user row the
 *   caller read before checking the factor: a reset or "sign out everywhere"
 *   that committed since refuses it (CREDENTIALS_CHANGED, which the caller
 *   answers as its own "invalid" error);
 * - it records the first factor's RFC 8176 `amr` values.
 */
import type { EndpointContext } from '../endpoint/context.js'
import type { SignInChallenge } from '../plugins/types.js'
import type { User } from '../types/rows.js'
import { setSessionCookies } from './session-cookies.js'
import { createSession, type CreatedSession } from './session-store.js'

export interface FirstFactor {
  /** RFC 8176 values of the factor checked: `['pwd']`, `['otp']`, `['sms']`. */
  readonly amr: readonly string[]
  /** A persistent session cookie (true) or one that ends with the browser. */
  readonly rememberMe: boolean
}

export type FirstFactorOutcome =
  | { readonly session: CreatedSession; readonly challenge?: undefined }
  | { readonly challenge: SignInChallenge; readonly session?: undefined }

/**
 * Asks the plugins' `signInChallenge`, else creates the session and sets its
 * cookies. `user` as read before the factor was checked.
 *
 * @example
 * const outcome = await completeFirstFactor(ctx, user, { amr: ['pwd'], rememberMe: body.rememberMe !== false })
 * if (outcome.challenge) return Response.json(outcome.challenge) // { twoFactorRedirect: true }
 * return { token: outcome.session.token, user: publicRow(ctx.auth.schema, 'user', user) }
 */
export async function completeFirstFactor(ctx: EndpointContext, user: User, factor: FirstFactor): Promise<FirstFactorOutcome> {
  for (const plugin of ctx.auth.plugins) {
    const challenge = await plugin.signInChallenge?.(ctx, { user, rememberMe: factor.rememberMe, amr: factor.amr })
    if (challenge) return { challenge }
  }
  const session = await createSession(ctx.auth, user, {
    ipAddress: ctx.ip,
    userAgent: ctx.headers.get('user-agent'),
    amr: factor.amr,
  })
  setSessionCookies(ctx, session, { dontRemember: !factor.rememberMe })
  return { session }
}
