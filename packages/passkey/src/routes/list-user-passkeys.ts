/**
 * @module
 * GET /passkey/list-user-passkeys (docs/passkeys.md#managing-passkeys): the
 * caller's passkeys, oldest first, without public keys or user handles.
 */
import { defineEndpoint, sessionMiddleware } from '@gatehouse/core'
import { publicPasskey, type PasskeyRow, type PublicPasskey } from '../schema.js'

/**
 * @example
 * // GET /api/auth/passkey/list-user-passkeys → [{ id, name, credentialID, deviceType, backedUp, createdAt, ... }]
 */
export const listUserPasskeys = defineEndpoint({
  method: 'GET',
  path: '/passkey/list-user-passkeys',
  use: [sessionMiddleware],
  handler: async (ctx): Promise<PublicPasskey[]> => {
    const rows = await ctx.db.findMany<PasskeyRow>({
      model: 'passkey',
      where: { field: 'userId', value: ctx.session.user.id },
      sortBy: { field: 'createdAt', direction: 'asc' },
    })
    return rows.map(publicPasskey)
  },
})
