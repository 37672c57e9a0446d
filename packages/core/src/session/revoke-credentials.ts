/**
 * @module
 * Ending everything that signs a user in, for the account's security
 * (docs/plugins.md#when-a-users-credentials-are-revoked). Core's sessions go,
 * every plugin's `onCredentialsRevoked` ends what it issued (OAuth grants, a
 * pending second factor, trusted devices), and the sessions are swept once
 * more, all in the caller's transaction. One function, so that every route that ends a user's
 * sessions for security ends the rest as well: a refresh token or a pending
 * sign-in that outlived a password reset would undo the reset.
 */
import type { Store } from '../db/store.js'
import type { AuthContext } from '../endpoint/context.js'
import type { CredentialRevocationReason } from '../types/contract.js'
import { bumpCredentialVersion, deleteUserSessions } from './session-store.js'

export interface RevokeCredentials {
  readonly userId: string
  readonly reason: CredentialRevocationReason
  /** The transaction of the change that caused the revocation. */
  readonly db: Store
  /** The stored token hash of a session to keep (revoke-other-sessions keeps the caller's). */
  readonly keepSession?: string
}

/**
 * Deletes the user's sessions (but `keepSession`) and tells every plugin.
 * Returns how many sessions were deleted.
 *
 * @example
 * await ctx.db.transaction(async (tx) => {
 *   await tx.update({ model: 'account', where: { field: 'id', value: accountId }, update: { password: hash } })
 *   await revokeUserCredentials(ctx.auth, { userId, reason: 'password-reset', db: tx })
 * })
 */
export async function revokeUserCredentials(auth: AuthContext, revocation: RevokeCredentials): Promise<number> {
  const { userId, reason, db, keepSession } = revocation
  // First the user row's credential version, under its lock: a sign-in that checked a credential before this
  // point can no longer create its session, and one that is creating it now holds the lock until its commit,
  // so the sweep below sees its session (docs/sessions.md#sign-ins-racing-a-revocation). The user row is
  // always the first lock a revocation takes; sign-ins that lock a plugin's row take the user's first too.
  await bumpCredentialVersion(auth, db, userId)
  // Sessions, then plugins, then sessions again, so that no sign-in racing the revocation survives it:
  // - a flow that checks a session under its lock and then issues something (an OAuth code exchange) is
  //   waited for by the first sweep's delete of that session, so the plugin's hook then sees what it issued;
  // - a flow that turns a pending sign-in into a session under a lock of a plugin's row (a second factor) is
  //   waited for by that plugin's hook, and the second sweep sees the session it made.
  const deleted = await deleteUserSessions(auth, userId, keepSession, db)
  for (const plugin of auth.plugins) await plugin.onCredentialsRevoked?.({ userId, reason, db }, auth)
  if (auth.plugins.some((plugin) => plugin.onCredentialsRevoked)) return deleted + (await deleteUserSessions(auth, userId, keepSession, db))
  return deleted
}
