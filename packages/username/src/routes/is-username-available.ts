/**
 * @module
 * POST /is-username-available (docs/username.md#checking-a-name): whether a
 * sign-up or rename could take the name now: `{ available: false }` when an
 * account holds it or it is reserved; 422 with the reason when it cannot be
 * a username at all. Usernames are public by nature, and this route says
 * which are taken: it has its own limit per client (20 a minute by
 * default), and an app whose usernames must stay secret turns it off
 * (`disableAvailabilityCheck`: 404).
 */
import { AuthError, CoreErrors, defineEndpoint, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { checkUsername } from '../names.js'
import type { ResolvedUsernameOptions } from '../options.js'
import { unprocessable } from './sign-in-username.js'

export function isUsernameAvailable(options: ResolvedUsernameOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/is-username-available',
    body: z.lazy(() => z.object({ username: z.string() })),
    handler: async (ctx) => {
      if (options.disableAvailabilityCheck) throw new AuthError(CoreErrors.NOT_FOUND)
      const checked = await checkUsername(options, ctx.body.username)
      if (!checked.ok) throw unprocessable(checked.error)
      if (options.reserved.has(checked.username)) return { available: false }
      const owner = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'username', value: checked.username } })
      return { available: owner === null }
    },
  })
}
