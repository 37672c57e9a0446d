/**
 * A stand-in for the API key plugin, for tests of the credential rules
 * (docs/sessions.md#credentials-other-than-the-cookie): `x-test-key: <user id>`
 * signs the call in as that user with `mayChangeCredentials: false`;
 * `x-test-key: refused` (or an unknown id) is refused with 401
 * TEST_KEY_REFUSED. `calls.count` counts the lookups of a present header.
 */
import { AuthError, defineErrors } from '../src/errors/catalogue.js'
import { definePlugin } from '../src/plugins/types.js'
import type { RequestCredential } from '../src/types/contract.js'
import type { User } from '../src/types/rows.js'

export const TestKeyErrors = defineErrors({ TEST_KEY_REFUSED: { status: 401, message: 'Test key refused' } })

export function testKeyPlugin(calls: { count: number } = { count: 0 }) {
  return definePlugin({
    id: 'test-key',
    errors: TestKeyErrors,
    authenticate: async (ctx): Promise<RequestCredential | undefined> => {
      const userId = ctx.headers.get('x-test-key')
      if (userId === null) return undefined
      calls.count += 1
      const user = userId === 'refused' ? null : await ctx.db.findOne<User & Record<string, unknown>>({ model: 'user', where: { field: 'id', value: userId } })
      if (!user) throw new AuthError(TestKeyErrors.TEST_KEY_REFUSED)
      const now = ctx.clock.now()
      return {
        source: 'test-key',
        mayChangeCredentials: false,
        session: {
          user,
          session: { id: 'key-1', token: 'key:key-1', userId, expiresAt: new Date(now.getTime() + 3600_000), createdAt: now, updatedAt: now, ipAddress: null, userAgent: null },
        },
      }
    },
  })
}
