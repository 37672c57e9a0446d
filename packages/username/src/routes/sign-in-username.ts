/**
 * @module
 * POST /sign-in/username (docs/username.md#signing-in): the password of the
 * account that holds the username. Everything after the look-up is core's
 * password sign-in (`signInWithPassword`): an unknown name, an account
 * without a password and a wrong password all answer 401 "Invalid username
 * or password" after a full password hash; weak hashes are upgraded; an
 * unverified address is refused when verification is required; a second
 * factor answers `{ twoFactorRedirect: true }` instead of a session; a reset
 * that committed meanwhile refuses the session. The route is under core's
 * strict `/sign-in/*` limit.
 *
 * A name that cannot be a username (too short, too long, characters the
 * rules refuse) answers 422 with the reason before any look-up: it tells
 * nothing about accounts.
 */
import { AuthError, CoreErrors, defineEndpoint, signInWithPassword, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { UsernameErrors } from '../errors.js'
import { checkUsername } from '../names.js'
import type { ResolvedUsernameOptions } from '../options.js'

export const signInUsernameBody = z.lazy(() =>
  z.object({
    username: z.string(),
    password: z.string(),
    rememberMe: z.boolean().optional(),
    callbackURL: z.string().optional(),
  }),
)

/** The leading library answers a malformed name at sign-in and at the availability check with 422. */
export function unprocessable(error: AuthError): AuthError {
  return new AuthError({ code: error.code, message: error.message, status: 422 })
}

export function signInUsername(options: ResolvedUsernameOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/sign-in/username',
    body: signInUsernameBody,
    handler: async (ctx) => {
      const { body } = ctx
      if (!ctx.options.emailAndPassword?.enabled) throw new AuthError(CoreErrors.EMAIL_PASSWORD_DISABLED)
      const checked = await checkUsername(options, body.username)
      if (!checked.ok) throw unprocessable(checked.error)
      const user = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'username', value: checked.username } })
      return signInWithPassword(ctx, user, { ...body, invalid: UsernameErrors.INVALID_USERNAME_OR_PASSWORD })
    },
  })
}
