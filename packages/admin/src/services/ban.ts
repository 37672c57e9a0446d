/**
 * @module
 * Bans (docs/admin.md#bans). A banned user gets no new session by any path
 * (password, social, magic link, impersonation): the guard is a database
 * hook on session creation, not a check in one sign-in route. A ban whose
 * expiry has passed is lifted by the next session creation. Banning revokes
 * every session of the user, and every session the user opened by
 * impersonating others, in the database and in secondary storage;
 * cookie-cached copies stop working at their next database check, at most
 * `session.cookieCache.maxAge` later.
 */
import { AuthError, deleteUserSessions, revokeUserCredentials, type AuthContext, type Row, type Store } from '@gatehouse/core'
import { AdminErrors } from '../errors.js'
import type { ResolvedAdminOptions } from '../options.js'
import { findAdminUser, type AdminUser } from './permission.js'

export const UNBANNED = { banned: false, banReason: null, banExpires: null } as const

/** Whether the user is banned now; a ban past its expiry no longer counts. */
export function isBanned(user: Pick<AdminUser, 'banned' | 'banExpires'>, now: Date): boolean {
  if (user.banned !== true) return false
  return user.banExpires === null || user.banExpires === undefined || user.banExpires.getTime() > now.getTime()
}

/**
 * Refuses (403) a session for a banned user, and lifts an expired ban on the way.
 *
 * @example
 * await refuseBanned(db, auth.clock, options, 'user-id') // throws BANNED_USER while the ban lasts
 */
export async function refuseBanned(
  db: Store,
  clock: Pick<AuthContext['clock'], 'now'>,
  options: ResolvedAdminOptions,
  userId: string,
): Promise<void> {
  const user = await findAdminUser(db, userId)
  if (!user || user.banned !== true) return
  if (isBanned(user, clock.now())) throw new AuthError(AdminErrors.BANNED_USER, { message: options.bannedUserMessage })
  await db.update({ model: 'user', where: { field: 'id', value: user.id }, update: { ...UNBANNED } })
}

/**
 * Marks the user banned and ends their sessions and grants, in one
 * transaction under a lock of the user's row: either all of it holds or none
 * does. A revocation that fails (secondary storage down: 503) leaves the user
 * unbanned, with nothing revoked, for the admin to retry; never banned with
 * sessions alive (docs/admin.md#bans). A session being created meanwhile
 * either committed first, and the sweep deletes it, or meets the ban: core's
 * createSession checks the user row under its lock, the session guard reads
 * the flag, and its after-hook re-reads it. One more sweep after the commit
 * takes any session a path without that lock inserted while the ban was
 * being written.
 *
 * @throws StorageUnavailableError (503) when secondary storage is down.
 *
 * @example
 * const banned = await banUser(auth, userId, { banReason: 'spam', banExpires: null })
 */
export async function banUser(
  auth: AuthContext,
  userId: string,
  ban: { readonly banReason: string; readonly banExpires: Date | null },
): Promise<AdminUser | null> {
  const updated = await auth.db.transaction(async (tx) => {
    if (!(await tx.lock({ model: 'user', where: { field: 'id', value: userId } }))) return null
    const row = await tx.update<AdminUser & Row>({
      model: 'user',
      where: { field: 'id', value: userId },
      update: { banned: true, banReason: ban.banReason, banExpires: ban.banExpires },
    })
    // Sessions, impersonations (the plugin's onCredentialsRevoked), OAuth grants, pending second factors:
    // nothing the user was handed outlives the ban.
    if (row) await revokeUserCredentials(auth, { userId, reason: 'banned', db: tx })
    return row
  })
  if (updated) await deleteUserSessions(auth, userId)
  return updated
}
