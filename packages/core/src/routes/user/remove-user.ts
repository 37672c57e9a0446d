/**
 * @module
 * Deleting a user (the user, its sessions and accounts:
 * docs/accounts.md#deleting-the-user), shared by POST /delete-user and GET
 * /delete-user/callback so both delete the same way.
 *
 * A delete-account token, when one authorises the deletion, is first read
 * and compared with the user, without consuming it: another user's token is
 * refused and stays usable by its owner. `beforeDelete` runs next and may
 * throw to veto. Then one transaction consumes the token (atomically: of
 * concurrent requests one wins) and deletes the user's sessions, accounts,
 * pending reset and delete-account tokens, and the user. Foreign keys would
 * cascade most of this, but the sessions are deleted explicitly so their
 * copies in secondary storage go too, again after the commit, and a read
 * racing the transaction cannot put one back
 * (docs/sessions.md#revocation-and-racing-reads); with the storage
 * unreachable nothing is deleted and the answer is 503. Because the token is consumed inside the transaction, it is
 * used up if and only if the user is deleted: one a concurrent request
 * consumed first rolls everything back.
 * (`beforeDelete` runs before the transaction, so it may run for each of
 * several concurrent clicks on one link; only one of them deletes, and only
 * that one runs `afterDelete`.)
 */
import type { WhereInput } from '../../db/adapter.js'
import type { Store } from '../../db/store.js'
import type { AuthContext, EndpointContext } from '../../endpoint/context.js'
import { clearSessionCookies } from '../../session/session-cookies.js'
import { revokeUserCredentials } from '../../session/revoke-credentials.js'
import type { User } from '../../types/rows.js'
import { consumeVerificationToken, peekVerificationToken } from '../../verification/verification-token.js'

export interface RemoveUserOptions {
  /** A delete-account token authorising the deletion; it must name this user and is consumed with it. */
  readonly token?: string
}

export type RemoveUserResult = { readonly ok: true } | { readonly ok: false; readonly reason: 'invalid-token' }

/** Thrown inside the transaction to roll it back; never leaves this module. */
class TokenRejected extends Error {}

/**
 * Deletes `user` and everything that signs them in, then clears the caller's
 * session cookies.
 *
 * @example
 * const result = await removeUser(ctx, user, { token })
 * if (!result.ok) throw new AuthError(CoreErrors.INVALID_TOKEN)
 */
export async function removeUser(ctx: EndpointContext, user: User, options: RemoveUserOptions = {}): Promise<RemoveUserResult> {
  if (options.token !== undefined) {
    // Compare before consuming: a request that may not delete must not burn its owner's link.
    const owner = await peekVerificationToken(ctx.auth, 'delete-account', options.token)
    if (owner !== user.id) return { ok: false, reason: 'invalid-token' }
  }
  const hooks = ctx.options.user?.deleteUser
  await hooks?.beforeDelete?.(user)

  try {
    await ctx.db.transaction(async (tx) => {
      if (options.token !== undefined) {
        const owner = await consumeVerificationToken(ctx.auth, 'delete-account', options.token, tx)
        if (owner !== user.id) throw new TokenRejected()
      }
      await deleteUserRows(ctx.auth, user.id, tx)
    })
  } catch (error) {
    if (error instanceof TokenRejected) return { ok: false, reason: 'invalid-token' }
    throw error
  }

  clearSessionCookies(ctx)
  try {
    await hooks?.afterDelete?.(user)
  } catch (error) {
    // The user is gone: failing the request now would report an error for a deletion that happened.
    ctx.logger.error('deleteUser.afterDelete failed', { userId: user.id, error: error instanceof Error ? error.name : typeof error })
  }
  return { ok: true }
}

/**
 * Deletes a user inside the caller's transaction, as every deletion does: its
 * sessions (and their secondary-storage copies, after the commit) and what
 * plugins issued to it end first (`revokeUserCredentials`, reason
 * `user-deleted`), then its accounts, pending reset and delete-account
 * tokens, and the user. For plugins that delete users of their own (expired
 * guests, a guest merged into the account it signed up as).
 *
 * @example
 * await ctx.db.transaction((tx) => deleteUserRows(ctx.auth, guest.id, tx))
 */
export async function deleteUserRows(auth: AuthContext, userId: string, tx: Store): Promise<void> {
  // The sessions, and what plugins issued to the user (OAuth grants), end in this transaction.
  await revokeUserCredentials(auth, { userId, reason: 'user-deleted', db: tx })
  await tx.deleteMany({ model: 'account', where: { field: 'userId', value: userId } })
  await tx.deleteMany({ model: 'verification', where: pendingTokensOf(userId) })
  await tx.delete({ model: 'user', where: { field: 'id', value: userId } })
}

/** Reset-password and delete-account tokens hold the user id as their value (docs/core.md#tables). */
function pendingTokensOf(userId: string): WhereInput {
  return [
    { field: 'value', value: userId },
    {
      or: [
        { field: 'identifier', operator: 'starts_with', value: 'reset-password:' },
        { field: 'identifier', operator: 'starts_with', value: 'delete-account-' },
      ],
    },
  ]
}
