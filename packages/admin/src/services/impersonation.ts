/**
 * @module
 * Impersonation (docs/admin.md#impersonation). The cookie that keeps an
 * admin's own session while they impersonate a user holds the admin's
 * session token, signed with its own per-cookie key, so it is exactly as
 * sensitive as the session cookie it stands in for, and it ends with the
 * impersonation.
 *
 * An impersonation session belongs to the user, but it is the admin's
 * power that opened it, so it ends with that power (docs/admin.md#security):
 * with the admin's ban, removal, revoked credentials or lost
 * `user: impersonate` (`endImpersonationsBy`, in the change's transaction),
 * and, should one survive those, at its next read (`impersonationEnd`, the
 * plugin's `sessionEnd`). It ends as well once the user it impersonates
 * could no longer be impersonated by that admin: promoted to admin, or
 * granted something the admin does not hold. Otherwise a support agent
 * impersonating a user who is later promoted would act with the promotion.
 * It never outlives its own lifetime: the ordinary refresh stops at its
 * creation plus `impersonationSessionDuration`.
 */
import { deleteSessions, type AuthContext, type CookieJar, type Session, type Store } from '@gatehouse/core'
import type { Statements } from '@gatehouse/organization/access'
import type { ResolvedAdminOptions } from '../options.js'
import { isBanned } from './ban.js'
import { findAdminUser, isAdmin, outranks, userHasPermission, type AdminUser } from './permission.js'

export const ADMIN_SESSION_COOKIE = 'admin_session'

/** What an admin must hold to open, and to keep, an impersonation session. */
export const IMPERSONATE: Statements = { user: ['impersonate'] }

export interface StoredAdminSession {
  readonly token: string
  /** The admin signed in with rememberMe off: restore a browser-session cookie. */
  readonly dontRemember: boolean
}

export function writeAdminSession(cookies: CookieJar, value: StoredAdminSession, maxAge: number): void {
  cookies.setSigned(ADMIN_SESSION_COOKIE, `${value.dontRemember ? '1' : '0'}:${value.token}`, { maxAge })
}

export function readAdminSession(cookies: CookieJar): StoredAdminSession | null {
  const value = cookies.getSigned(ADMIN_SESSION_COOKIE)
  const match = value ? /^([01]):(.+)$/.exec(value) : null
  if (!match) return null
  return { dontRemember: match[1] === '1', token: match[2] as string }
}

/** The session's `impersonatedBy`, or null for an ordinary session. */
export function impersonatorOf(session: { readonly [field: string]: unknown }): string | null {
  const value = session.impersonatedBy
  return typeof value === 'string' && value !== '' ? value : null
}

/**
 * Deletes every session `adminId` opened by impersonation, in the database
 * and in secondary storage, through `db` (the transaction of the change that
 * took the admin's power away). With `lock`, the admin's row is locked
 * first: impersonate-user opens its session under the same lock, so a
 * session it was opening either committed before this sweep reads (and is
 * deleted) or waits for the change and sees it. Returns how many ended.
 *
 * @throws StorageUnavailableError (503) when secondary storage is down: the caller's transaction rolls back.
 *
 * @example
 * await ctx.db.transaction((tx) => endImpersonationsBy(ctx.auth, adminId, tx))
 */
export async function endImpersonationsBy(auth: AuthContext, adminId: string, db: Store, options: { lock?: boolean } = {}): Promise<number> {
  if (options.lock) await db.lock({ model: 'user', where: { field: 'id', value: adminId } })
  const sessions = await db.findMany<Session>({ model: 'session', where: { field: 'impersonatedBy', value: adminId } })
  return deleteSessions(auth, sessions.map((session) => session.token), db)
}

/**
 * Deletes the impersonation sessions opened on `userId` (whoever opened
 * them) through `db`, the transaction of the change to the user's roles: the
 * admin who opened one was checked against the roles as they were
 * (docs/admin.md#security). Returns how many ended.
 *
 * @throws StorageUnavailableError (503) when secondary storage is down: the caller's transaction rolls back.
 *
 * @example
 * await ctx.db.transaction((tx) => endImpersonationsOf(ctx.auth, userId, tx))
 */
export async function endImpersonationsOf(auth: AuthContext, userId: string, db: Store): Promise<number> {
  const sessions = await db.findMany<Session>({ model: 'session', where: { field: 'userId', value: userId } })
  return deleteSessions(auth, sessions.filter((session) => impersonatorOf(session) !== null).map((session) => session.token), db)
}

/**
 * Whether `admin` may still hold an impersonation of `target` as both are
 * now: the checks impersonate-user makes when it opens one, made again.
 */
export function mayImpersonate(options: ResolvedAdminOptions, admin: AdminUser, target: AdminUser, now: Date): boolean {
  if (isBanned(admin, now) || !userHasPermission(options, admin, IMPERSONATE)) return false
  if (isAdmin(options, target) && !options.allowImpersonatingAdmins) return false
  return outranks(options, admin, target)
}

/**
 * The plugin's `sessionEnd` (docs/plugins.md#a-sessions-hard-end): null for an
 * ordinary session (no query); for an impersonation, its creation plus
 * `impersonationSessionDuration`, or now when the admin who opened it is
 * gone, banned or no longer holds `user: impersonate`, or when the user is
 * now an admin (unless `allowImpersonatingAdmins`) or holds a grant the
 * admin lacks: changes made outside the admin routes (an edited role list,
 * a row written by hand) or racing them.
 *
 * @example
 * sessionEnd: ({ session }, auth) => impersonationEnd(auth, options, session)
 */
export async function impersonationEnd(auth: AuthContext, options: ResolvedAdminOptions, session: Session): Promise<Date | null> {
  const adminId = impersonatorOf(session)
  if (!adminId) return null
  const now = auth.clock.now()
  const admin = await findAdminUser(auth.db, adminId)
  const target = admin ? await findAdminUser(auth.db, session.userId) : null
  if (!admin || !target || !mayImpersonate(options, admin, target, now)) return now
  return new Date(session.createdAt.getTime() + options.impersonationSessionDuration * 1000)
}
