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
import { AuthError, revokeUserCredentials, type AuthContext, type Row, type Store } from '@gatehouse/core'
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
 * Marks the user banned, then ends their sessions and grants. The flag is written
 * first: a session created concurrently either sees it (and is refused) or
 * was inserted before the sweep (and is deleted by it).
 */
export async function banUser(
  auth: AuthContext,
  userId: string,
  ban: { readonly banReason: string; readonly banExpires: Date | null },
): Promise<AdminUser | null> {
  const updated = await auth.db.update<AdminUser & Row>({
    model: 'user',
    where: { field: 'id', value: userId },
    update: { banned: true, banReason: ban.banReason, banExpires: ban.banExpires },
  })
  if (!updated) return null
  // Sessions, impersonations (the plugin's onCredentialsRevoked), OAuth grants, pending second factors:
  // nothing the user was handed outlives the ban.
  await auth.db.transaction((tx) => revokeUserCredentials(auth, { userId, reason: 'banned', db: tx }))
  return updated
}
