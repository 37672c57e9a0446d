/**
 * @module
 * POST /passkey/delete-passkey {id} (docs/passkeys.md#managing-passkeys):
 * removes one of the caller's passkeys; it can no longer sign in. Matched
 * by id and owner in one write: another user's passkey id is "Passkey not
 * found", like an id that does not exist.
 */
import { AuthError, defineEndpoint, credentialSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { PasskeyErrors } from '../errors.js'

const body = z.lazy(() => z.object({ id: z.string().min(1).max(256) }))

/**
 * @example
 * // POST /api/auth/passkey/delete-passkey { id: 'pk_1' } → { status: true }
 */
export const deletePasskey = defineEndpoint({
  method: 'POST',
  path: '/passkey/delete-passkey',
  body,
  use: [credentialSessionMiddleware],
  handler: async (ctx) => {
    const deleted = await ctx.db.deleteMany({
      model: 'passkey',
      where: [
        { field: 'id', value: ctx.body.id },
        { field: 'userId', value: ctx.session.user.id },
      ],
    })
    if (deleted === 0) throw new AuthError(PasskeyErrors.PASSKEY_NOT_FOUND)
    return { status: true }
  },
})
