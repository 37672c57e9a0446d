/**
 * @module
 * POST /unlink-account {providerId, accountId?} (docs/accounts.md#linked-accounts): removes one
 * of the caller's linked accounts. Needs a fresh session (403 "Session is not
 * fresh"). The account must be the caller's ("Account not found"; another
 * user's account is indistinguishable from a missing one), and the last
 * account stays unless `account.accountLinking.allowUnlinkingAll` ("You
 * can't unlink your last account"): a user with no account could never sign
 * in again.
 *
 * The count and the delete share one transaction that first writes the
 * user's row. That write locks the row, so two concurrent unlinks of the same
 * user run one after the other and the second counts what the first left:
 * of a user's last two accounts, at most one is unlinked. Counting alone
 * would not do under READ COMMITTED, where both would see two accounts.
 */
import { z } from 'zod'
import type { Row } from '../../db/adapter.js'
import type { Account } from '../../accounts/users.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { freshSessionMiddleware } from '../../session/middleware.js'

/**
 * @example
 * await auth.api.unlinkAccount({ body: { providerId: 'github' }, headers: request.headers })
 */
export const unlinkAccount = defineEndpoint({
  method: 'POST',
  path: '/unlink-account',
  body: z.lazy(() =>
    z.object({
      providerId: z.string().min(1),
      accountId: z.string().min(1).optional(),
    }),
  ),
  use: [freshSessionMiddleware],
  handler: async (ctx) => {
    const userId = ctx.session.user.id
    const allowUnlinkingAll = ctx.options.account?.accountLinking?.allowUnlinkingAll === true
    const { providerId, accountId } = ctx.body

    await ctx.db.transaction(async (tx) => {
      // Lock first: on MySQL a plain read before it would fix the snapshot the count sees.
      await tx.update({ model: 'user', where: { field: 'id', value: userId }, update: { updatedAt: ctx.clock.now() } })
      const account = await tx.findOne<Account & Row>({
        model: 'account',
        where: [
          { field: 'userId', value: userId },
          { field: 'providerId', value: providerId },
          ...(accountId === undefined ? [] : [{ field: 'accountId', value: accountId }]),
        ],
      })
      if (!account) throw new AuthError(CoreErrors.ACCOUNT_NOT_FOUND)
      if (!allowUnlinkingAll) {
        const count = await tx.count({ model: 'account', where: { field: 'userId', value: userId } })
        if (count <= 1) throw new AuthError(CoreErrors.FAILED_TO_UNLINK_LAST_ACCOUNT)
      }
      await tx.delete({ model: 'account', where: { field: 'id', value: account.id } })
    })
    return { status: true }
  },
})
