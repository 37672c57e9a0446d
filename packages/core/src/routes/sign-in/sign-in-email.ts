/**
 * @module
 * POST /sign-in/email (docs/sessions.md#signing-up-in-and-out). An unknown email,
 * a user without a credential account and a wrong password all answer 401
 * "Invalid email or password" after the same work: a full password hash is
 * computed in every case (prevents account enumeration by message or timing).
 * So does a password longer than `maxPasswordLength`, without that input ever
 * reaching normalisation or the hasher (docs/passwords.md#bounded-input): the
 * password service checks its length first, in bounded time.
 * A plugin's `signInChallenge` (a second factor) may answer instead of a session.
 */
import { z } from 'zod'
import { normalizeEmail } from '../../accounts/email.js'
import { rehashWeakPassword } from '../../accounts/rehash-password.js'
import { findCredentialAccount, findUserByEmail } from '../../accounts/users.js'
import { publicRow } from '../../db/output.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { setSessionCookies } from '../../session/session-cookies.js'
import { createSession } from '../../session/session-store.js'
import { canSendVerificationEmail, sendVerificationEmail } from '../../verification/send-verification-email.js'

export const signInEmail = defineEndpoint({
  method: 'POST',
  path: '/sign-in/email',
  body: z.lazy(() =>
    z.object({
      email: z.string(),
      password: z.string(),
      callbackURL: z.string().optional(),
      rememberMe: z.boolean().optional(),
    }),
  ),
  handler: async (ctx) => {
    const { body, options, auth } = ctx
    if (!options.emailAndPassword?.enabled) throw new AuthError(CoreErrors.EMAIL_PASSWORD_DISABLED)
    const email = normalizeEmail(body.email)
    if (!email) throw new AuthError(CoreErrors.INVALID_EMAIL)

    const user = await findUserByEmail(ctx.db, email)
    const account = user ? await findCredentialAccount(ctx.db, user.id) : null
    const valid = await auth.passwords.verifyOrDummy(account?.password, body.password)
    if (!user || !account?.password || !valid) throw new AuthError(CoreErrors.INVALID_EMAIL_OR_PASSWORD)
    await rehashWeakPassword(auth, account, body.password)

    if (options.emailAndPassword.requireEmailVerification && !user.emailVerified) {
      // Prevents account enumeration: the password a sign-up just chose would otherwise tell a new account (403) from a taken address (401).
      if (options.emailAndPassword.preventEnumeration) throw new AuthError(CoreErrors.INVALID_EMAIL_OR_PASSWORD)
      // The user gets a fresh verification mail if one can be sent, then the call fails.
      if (canSendVerificationEmail(ctx)) await sendVerificationEmail(ctx, user, { callbackURL: body.callbackURL })
      throw new AuthError(CoreErrors.EMAIL_NOT_VERIFIED)
    }

    // A second factor may hold the sign-in back: then no session exists until it succeeds (docs/two-factor.md#signing-in).
    for (const plugin of ctx.auth.plugins) {
      const challenge = await plugin.signInChallenge?.(ctx, { user, rememberMe: body.rememberMe !== false })
      // A Response, so the endpoint's result type (and the client's) stays the session answer.
      if (challenge) return Response.json(challenge)
    }

    const dontRemember = body.rememberMe === false
    // `user` was read before the password was checked: a reset or "sign out everywhere" that committed since
    // refuses this session, which its sweep would never see (docs/sessions.md#sign-ins-racing-a-revocation).
    const session = await createSession(auth, user, {
      ipAddress: ctx.ip,
      userAgent: ctx.headers.get('user-agent'),
      amr: ['pwd'],
    }).catch((error: unknown) => {
      // The password it verified is no longer the account's.
      if (error instanceof AuthError && error.code === 'CREDENTIALS_CHANGED') throw new AuthError(CoreErrors.INVALID_EMAIL_OR_PASSWORD)
      throw error
    })
    setSessionCookies(ctx, session, { dontRemember })
    return {
      redirect: body.callbackURL !== undefined,
      token: session.token,
      url: body.callbackURL,
      user: publicRow(auth.schema, 'user', user),
    }
  },
})
