/**
 * @module
 * POST /passkey/update-passkey {id, name} (docs/passkeys.md#managing-passkeys):
 * renames one of the caller's passkeys. The row is matched by id and owner
 * in one write, so another user's passkey id is "Passkey not found", the
 * same answer as an id that does not exist.
 */
import { AuthError, defineEndpoint, credentialSessionMiddleware } from '@gatehouse/core'
import { z } from 'zod'
import { PasskeyErrors } from '../errors.js'
import { publicPasskey, type PasskeyRow } from '../schema.js'

const body = z.lazy(() => z.object({ id: z.string().min(1).max(256), name: z.string().trim().min(1).max(256) }))

/**
 * @example
 * // POST /api/auth/passkey/update-passkey { id: 'pk_1', name: 'Work laptop' } → { passkey: { id: 'pk_1', name: 'Work laptop', ... } }
 */
export const updatePasskey = defineEndpoint({
  method: 'POST',
  path: '/passkey/update-passkey',
  body,
  use: [credentialSessionMiddleware],
  handler: async (ctx) => {
    const updated = await ctx.db.update<PasskeyRow>({
      model: 'passkey',
      where: [
        { field: 'id', value: ctx.body.id },
        { field: 'userId', value: ctx.session.user.id },
      ],
      update: { name: ctx.body.name },
    })
    if (!updated) throw new AuthError(PasskeyErrors.PASSKEY_NOT_FOUND)
    return { passkey: publicPasskey(updated) }
  },
})
