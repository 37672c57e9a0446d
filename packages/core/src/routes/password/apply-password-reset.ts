/**
 * @module
 * What a password reset does once its proof (a mailed link, a code by mail
 * or text message) was accepted, for every way of proving it
 * (docs/accounts.md#password-reset): in the caller's transaction, the proof
 * counts as proof of the mailbox (the first one ends what an earlier
 * registrant set up), the password is replaced or created, older reset links
 * die, and, unless `revokeSessionsOnPasswordReset` is false, every session,
 * grant and pending sign-in of the user ends (`revokeUserCredentials`,
 * reason `password-reset`, which plugins hear too).
 */
import { CREDENTIAL_PROVIDER, findCredentialAccount } from '../../accounts/users.js'
import { publicRow } from '../../db/output.js'
import type { Store } from '../../db/store.js'
import type { AuthContext, EndpointContext } from '../../endpoint/context.js'
import { proveMailbox } from '../../session/prove-mailbox.js'
import { revokeUserCredentials } from '../../session/revoke-credentials.js'
import type { User } from '../../types/rows.js'

/** Reset tokens live under identifiers "reset-password:{token}" (the token's hash here) holding the user id (docs/core.md#tables). */
export const RESET_IDENTIFIER_PREFIX = 'reset-password:'

export interface PasswordReset {
  /** The user as read inside `db`. */
  readonly user: User
  /** The new password's hash (`auth.passwords.hash`), computed before the transaction. */
  readonly hash: string
  readonly db: Store
  /**
   * Whether the proof also proves the mailbox (a link or code sent to the address): true by default.
   * A code sent to a phone proves the phone only.
   */
  readonly provesMailbox?: boolean
}

/**
 * Applies the reset inside the caller's transaction; the user as it now is.
 * Two resets racing for a user without a password: the loser's insert hits
 * the (providerId, accountId) unique index; the caller retries once.
 *
 * @example
 * const user = await ctx.db.transaction(async (tx) => applyPasswordReset(ctx.auth, { user: stored, hash, db: tx }))
 * await reportPasswordReset(ctx, user)
 */
export async function applyPasswordReset(auth: AuthContext, reset: PasswordReset): Promise<User> {
  const { db, hash } = reset
  // The proof reached the mailbox: the first proof of it ends what an earlier registrant set up.
  const found = reset.provesMailbox === false ? reset.user : ((await proveMailbox(auth, { user: reset.user, db })) ?? reset.user)
  const account = await findCredentialAccount(db, found.id)
  if (account) {
    await db.update({ model: 'account', where: { field: 'id', value: account.id }, update: { password: hash } })
  } else {
    await db.create({
      model: 'account',
      data: { providerId: CREDENTIAL_PROVIDER, accountId: found.id, userId: found.id, password: hash },
    })
  }
  // An older reset mail must not reopen the account once a new password is set.
  await db.deleteMany({
    model: 'verification',
    where: [
      { field: 'identifier', operator: 'starts_with', value: RESET_IDENTIFIER_PREFIX },
      { field: 'value', value: found.id },
    ],
  })
  if (auth.options.emailAndPassword?.revokeSessionsOnPasswordReset !== false) {
    await revokeUserCredentials(auth, { userId: found.id, reason: 'password-reset', db })
  }
  return found
}

/** Calls `emailAndPassword.onPasswordReset` once the reset committed; its failure is logged, not answered. */
export async function reportPasswordReset(ctx: EndpointContext, user: User): Promise<void> {
  const onPasswordReset = ctx.options.emailAndPassword?.onPasswordReset
  if (!onPasswordReset) return
  try {
    await onPasswordReset({ user: publicRow(ctx.auth.schema, 'user', user as User & Record<string, unknown>) })
  } catch (error) {
    // The reset is committed: report the callback's failure to the operator, not as a failed reset.
    ctx.logger.error('onPasswordReset callback failed', {
      userId: user.id,
      error: error instanceof Error ? error.name : typeof error,
    })
  }
}
