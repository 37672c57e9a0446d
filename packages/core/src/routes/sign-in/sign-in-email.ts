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
 * The password check and what follows are shared with other ways of naming
 * the account (password-sign-in.ts).
 */
import { z } from 'zod'
import { normalizeEmail } from '../../accounts/email.js'
import { signInWithPassword } from './password-sign-in.js'
import { findUserByEmail } from '../../accounts/users.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'

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
    const { body, options } = ctx
    if (!options.emailAndPassword?.enabled) throw new AuthError(CoreErrors.EMAIL_PASSWORD_DISABLED)
    const email = normalizeEmail(body.email)
    if (!email) throw new AuthError(CoreErrors.INVALID_EMAIL)

    const user = await findUserByEmail(ctx.db, email)
    return signInWithPassword(ctx, user, { ...body, invalid: CoreErrors.INVALID_EMAIL_OR_PASSWORD })
  },
})
