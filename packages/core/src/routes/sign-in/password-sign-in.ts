/**
 * @module
 * A sign-in by password, whatever names the account (docs/sessions.md#signing-up-in-and-out):
 * the email at POST /sign-in/email, a username at the username plugin's
 * POST /sign-in/username. Both keep the same rules:
 *
 * - an unknown account, one without a password and a wrong password answer
 *   the caller's one "invalid" error after the same work: a full password
 *   hash in every case (no enumeration by message or timing);
 * - a weak stored hash is upgraded;
 * - with `requireEmailVerification`, an unverified address is refused (with
 *   `preventEnumeration`, as a wrong password);
 * - the end is `completeFirstFactor`: a second factor may answer instead,
 *   and a revocation since the user row was read refuses the session.
 */
import type { EndpointContext } from '../../endpoint/context.js'
import { AuthError, type ErrorDefinition } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import type { Row } from '../../db/adapter.js'
import { publicRow } from '../../db/output.js'
import { completeFirstFactor } from '../../session/first-factor.js'
import type { User } from '../../types/rows.js'
import { canSendVerificationEmail, sendVerificationEmail } from '../../verification/send-verification-email.js'
import { rehashWeakPassword } from '../../accounts/rehash-password.js'
import { findCredentialAccount } from '../../accounts/users.js'

export interface PasswordSignIn {
  readonly password: string
  readonly callbackURL?: string | undefined
  readonly rememberMe?: boolean | undefined
  /** What every failure of the first factor answers: `INVALID_EMAIL_OR_PASSWORD`, `INVALID_USERNAME_OR_PASSWORD`. */
  readonly invalid: ErrorDefinition
}

export interface PasswordSignInAnswer {
  readonly redirect: boolean
  readonly token: string
  readonly url: string | undefined
  readonly user: User & Row
}

/**
 * Checks `attempt.password` against `user`'s (null: no such account, the
 * same work is done) and signs in. A second factor's challenge comes back as
 * a Response (`{ twoFactorRedirect: true }`), so the route's result type stays
 * the session answer.
 *
 * @example
 * const user = await findUserByEmail(ctx.db, email)
 * return signInWithPassword(ctx, user, { ...body, invalid: CoreErrors.INVALID_EMAIL_OR_PASSWORD })
 */
export async function signInWithPassword(ctx: EndpointContext, user: (User & Row) | null, attempt: PasswordSignIn): Promise<PasswordSignInAnswer | Response> {
  const { auth, options } = ctx
  const account = user ? await findCredentialAccount(ctx.db, user.id) : null
  const valid = await auth.passwords.verifyOrDummy(account?.password, attempt.password)
  if (!user || !account?.password || !valid) throw new AuthError(attempt.invalid)
  await rehashWeakPassword(auth, account, attempt.password)

  if (options.emailAndPassword?.requireEmailVerification && !user.emailVerified) {
    // Prevents account enumeration: the password a sign-up just chose would otherwise tell a new account (403) from a taken address (401).
    if (options.emailAndPassword.preventEnumeration) throw new AuthError(attempt.invalid)
    // The user gets a fresh verification mail if one can be sent, then the call fails.
    if (canSendVerificationEmail(ctx)) await sendVerificationEmail(ctx, user, { callbackURL: attempt.callbackURL })
    throw new AuthError(CoreErrors.EMAIL_NOT_VERIFIED)
  }

  // A second factor may hold the sign-in back: then no session exists until it succeeds (docs/two-factor.md#signing-in).
  // `user` was read before the password was checked: a reset or "sign out everywhere" that committed since
  // refuses this session, which its sweep would never see (docs/sessions.md#sign-ins-racing-a-revocation).
  const outcome = await completeFirstFactor(ctx, user, { amr: ['pwd'], rememberMe: attempt.rememberMe !== false }).catch((error: unknown) => {
    // The password it verified is no longer the account's.
    if (error instanceof AuthError && error.code === 'CREDENTIALS_CHANGED') throw new AuthError(attempt.invalid)
    throw error
  })
  if (outcome.challenge) return Response.json(outcome.challenge)
  return {
    redirect: attempt.callbackURL !== undefined,
    token: outcome.session.token,
    url: attempt.callbackURL,
    user: publicRow(auth.schema, 'user', user),
  }
}
