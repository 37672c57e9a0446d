/**
 * @module
 * POST /update-user (docs/accounts.md#updating-the-user): a free-form body of
 * `name`, `image` and the configured additional user fields. An `email` field
 * is refused ("Email can not be updated": the address changes only through
 * change-email, which proves ownership of the new one). Every other field is
 * filtered against `user.additionalFields`: unknown fields and fields marked
 * `input: false` are dropped, so a client can never set `emailVerified` or
 * server-owned columns this way. A body that leaves nothing to write is 400
 * "No fields to update". The session then refreshes: secondary
 * storage and the cookie cache get the changed user.
 *
 * The session is read from the store, never the cookie cache: a session
 * revoked elsewhere must not rewrite the profile while its cache cookie
 * lives. `name`, `image` and string additional fields are capped in length
 * (docs/accounts.md#input-limits).
 */
import { z } from 'zod'
import { pickAdditionalFields } from '../../accounts/additional-fields.js'
import { pluginUserInput } from '../../accounts/plugin-user-input.js'
import { isUniqueViolation, type Row } from '../../db/adapter.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { MAX_IMAGE_LENGTH, MAX_NAME_LENGTH } from '../../endpoint/input-limits.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { sensitiveSessionMiddleware } from '../../session/middleware.js'
import type { User } from '../../types/rows.js'
import { publishUserChange } from './publish-user-change.js'

/**
 * @example
 * await auth.api.updateUser({ body: { name: 'Ada Lovelace', image: null }, headers: request.headers })
 */
export const updateUser = defineEndpoint({
  method: 'POST',
  path: '/update-user',
  body: z.lazy(() =>
    z
      .object({
        name: z.string().max(MAX_NAME_LENGTH).optional(),
        image: z.string().max(MAX_IMAGE_LENGTH).nullable().optional(),
      })
      .loose(),
  ),
  use: [sensitiveSessionMiddleware],
  handler: async (ctx) => {
    const { body, session } = ctx
    if ('email' in body) throw new AuthError(CoreErrors.EMAIL_CAN_NOT_BE_UPDATED)

    const update: Row = { ...pickAdditionalFields(ctx.options.user?.additionalFields, body, 'update'), ...(await pluginUserInput(ctx, body, session.user)) }
    if (body.name !== undefined) update.name = body.name
    if (body.image !== undefined) update.image = body.image
    if (Object.keys(update).length === 0) throw new AuthError(CoreErrors.NO_FIELDS_TO_UPDATE)

    const updated = await ctx.db
      .update<User & Row>({
        model: 'user',
        where: { field: 'id', value: session.user.id },
        update,
      })
      .catch(async (error: unknown) => {
        // A plugin's unique field (a username) taken by a request that won the race: the plugin names it.
        if (isUniqueViolation(error)) await pluginUserInput(ctx, body, session.user)
        throw error
      })
    // The session was read a moment ago; a user gone since then was deleted concurrently.
    if (!updated) throw new AuthError(CoreErrors.FAILED_TO_UPDATE_USER)
    await publishUserChange(ctx, session, updated)
    return { status: true }
  },
})
