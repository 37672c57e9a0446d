/**
 * @module
 * `username` and `displayUsername` in the bodies of POST /sign-up/email and
 * POST /update-user (docs/username.md#signing-up-and-changing-the-name),
 * through core's `userInput` hook: checked, normalised, and refused with the
 * plugin's own errors before anything is written. The unique index on
 * `username` decides two requests racing for one free name; core then asks
 * again, and the loser gets USERNAME_IS_ALREADY_TAKEN.
 *
 * - A sign-up with only `displayUsername` takes it as the username too when
 *   it is a valid one.
 * - A username without `displayUsername` is displayed as typed.
 * - Reserved names answer as taken.
 */
import { AuthError, type EndpointContext, type Row, type User, type UserInput } from '@gatehouse/core'
import { UsernameErrors } from './errors.js'
import { checkDisplayUsername, checkUsername } from './names.js'
import type { ResolvedUsernameOptions } from './options.js'

type Fields = { username?: string; displayUsername?: string }

export function usernameInput(options: ResolvedUsernameOptions) {
  return async (ctx: EndpointContext, input: UserInput): Promise<Row> => {
    const { body, user } = input
    const typedName = body.username
    const typedDisplay = body.displayUsername
    if (typedName === undefined && typedDisplay === undefined) return {}
    if (typedName !== undefined && typeof typedName !== 'string') throw new AuthError(UsernameErrors.INVALID_USERNAME)
    if (typedDisplay !== undefined && typeof typedDisplay !== 'string') throw new AuthError(UsernameErrors.INVALID_DISPLAY_USERNAME)

    const fields: Fields = {}
    if (typedDisplay !== undefined) fields.displayUsername = await checkDisplayUsername(options, typedDisplay)
    let candidate = typedName
    if (candidate === undefined && user === null && typedDisplay !== undefined) {
      // Sign-up with a display name only: it is the username too when it is a valid one.
      const checked = await checkUsername(options, typedDisplay)
      if (checked.ok) candidate = typedDisplay
    }
    if (candidate === undefined) return fields

    const checked = await checkUsername(options, candidate)
    if (!checked.ok) throw checked.error
    const current = typeof user?.username === 'string' ? user.username : null
    if (user !== null && options.immutableUsername && current !== null && current !== checked.username) {
      throw new AuthError(UsernameErrors.USERNAME_IS_IMMUTABLE)
    }
    if (checked.username !== current) {
      if (options.reserved.has(checked.username)) throw new AuthError(UsernameErrors.USERNAME_IS_ALREADY_TAKEN)
      const owner = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'username', value: checked.username } })
      if (owner && owner.id !== user?.id) throw new AuthError(UsernameErrors.USERNAME_IS_ALREADY_TAKEN)
    }
    fields.username = checked.username
    fields.displayUsername ??= candidate.normalize('NFKC')
    return fields
  }
}
