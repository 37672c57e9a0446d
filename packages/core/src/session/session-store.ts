/**
 * @module
 * Sessions in the database, mirrored in secondary storage when one is
 * configured (docs/sessions.md#what-is-stored-where). The client holds a random token of 190 bits; the
 * database holds only its SHA-256, so a dump of the session table yields no
 * usable session. Reads go to secondary storage first, then to the database
 * with one query (session joined with its user).
 */
import type { Row } from '../db/adapter.js'
import { publicRow, reviveDates } from '../db/output.js'
import { sha256Base64url } from '../crypto/keys.js'
import { generateToken } from '../crypto/random.js'
import type { AuthContext } from '../endpoint/context.js'
import type { Store } from '../db/store.js'
import { sessionOptions } from './session-options.js'
import type { Session, SessionWithUser, User } from './types.js'

export const SESSION_TOKEN_LENGTH = 32

export function hashSessionToken(token: string): string {
  return sha256Base64url(token)
}

function storageKey(tokenHash: string): string {
  return `session:${tokenHash}`
}

type Ctx = Pick<AuthContext, 'db' | 'clock' | 'random' | 'schema' | 'secondaryStorage' | 'options'>

export interface CreatedSession extends SessionWithUser {
  /** The raw token, for the cookie (and the sign-in response); never stored. */
  readonly token: string
}

export async function createSession(
  ctx: Ctx,
  user: User,
  details: {
    ipAddress?: string | null
    userAgent?: string | null
    db?: Store
    /** Seconds; a shorter lifetime than the configured one (an admin's impersonation session). */
    expiresIn?: number
    /** Plugin fields of the session row (`impersonatedBy`). */
    fields?: Row
    /**
     * false when `db` is a transaction that has not committed yet: the caller
     * mirrors with `mirrorSession` after the commit, so secondary storage
     * never holds a session that a rollback took back.
     */
    mirror?: boolean
  } = {},
): Promise<CreatedSession> {
  const token = generateToken(ctx.random, SESSION_TOKEN_LENGTH)
  const now = ctx.clock.now()
  const expiresIn = details.expiresIn ?? sessionOptions(ctx.options).expiresIn
  const session = await (details.db ?? ctx.db).create<Session & Row>({
    model: 'session',
    data: {
      ...details.fields,
      userId: user.id,
      token: hashSessionToken(token),
      expiresAt: new Date(now.getTime() + expiresIn * 1000),
      ipAddress: details.ipAddress ?? null,
      userAgent: details.userAgent ?? null,
    },
  })
  const result = { session: publicRow(ctx.schema, 'session', session), user: publicRow(ctx.schema, 'user', user) }
  if (details.mirror !== false) await mirror(ctx, result)
  return { ...result, token }
}

/** The session a token names, with its user; null when there is none. Expiry is the caller's to judge. */
export async function findSession(ctx: Ctx, token: string): Promise<SessionWithUser | null> {
  const tokenHash = hashSessionToken(token)
  if (ctx.secondaryStorage) {
    const cached = await ctx.secondaryStorage.get(storageKey(tokenHash))
    if (cached) {
      const parsed = parseStored(ctx, cached)
      if (parsed) return parsed
    }
  }
  const row = await ctx.db.findOne<Session & Row & { user: (User & Row) | null }>({
    model: 'session',
    where: { field: 'token', value: tokenHash },
    join: { user: { model: 'user', on: { field: 'userId', references: 'id' } } },
  })
  if (!row || !row.user) return null
  const { user, ...session } = row
  const result = { session: publicRow(ctx.schema, 'session', session as Session & Row), user: publicRow(ctx.schema, 'user', user) }
  if (ctx.secondaryStorage) await mirror(ctx, result)
  return result
}

/** Extends a session to `now + expiresIn` (the refresh past `updateAge`); null when it no longer exists. */
export async function refreshSession(ctx: Ctx, current: SessionWithUser): Promise<SessionWithUser | null> {
  const now = ctx.clock.now()
  const { expiresIn } = sessionOptions(ctx.options)
  const updated = await ctx.db.update<Session & Row>({
    model: 'session',
    where: { field: 'id', value: current.session.id },
    update: { expiresAt: new Date(now.getTime() + expiresIn * 1000), updatedAt: now },
  })
  if (!updated) return null
  const result = { session: publicRow(ctx.schema, 'session', updated), user: current.user }
  await mirror(ctx, result)
  return result
}

/** Deletes sessions by their stored token hashes, in the database and in secondary storage. */
export async function deleteSessions(ctx: Ctx, tokenHashes: readonly string[], db: Store = ctx.db): Promise<number> {
  if (tokenHashes.length === 0) return 0
  const deleted = await db.deleteMany({ model: 'session', where: { field: 'token', operator: 'in', value: [...tokenHashes] } })
  if (ctx.secondaryStorage) await Promise.all(tokenHashes.map((hash) => ctx.secondaryStorage?.delete(storageKey(hash))))
  return deleted
}

/** Every session of a user, newest first. */
export function userSessions(ctx: Ctx, userId: string): Promise<Session[]> {
  return ctx.db.findMany<Session & Row>({
    model: 'session',
    where: { field: 'userId', value: userId },
    sortBy: { field: 'createdAt', direction: 'desc' },
  })
}

/** Deletes all of a user's sessions, optionally sparing one (revoke-other-sessions). */
export async function deleteUserSessions(ctx: Ctx, userId: string, except?: string, db: Store = ctx.db): Promise<number> {
  const sessions = await userSessions({ ...ctx, db }, userId)
  return deleteSessions(
    ctx,
    sessions.filter((session) => session.token !== except).map((session) => session.token),
    db,
  )
}

/** Rewrites the mirrored copies of a user's sessions after the user changed (name, email, verification). */
export async function refreshUserInStorage(ctx: Ctx, user: User): Promise<void> {
  if (!ctx.secondaryStorage) return
  const sessions = await userSessions(ctx, user.id)
  await Promise.all(sessions.map((session) => mirror(ctx, { session, user: publicRow(ctx.schema, 'user', user as User & Row) })))
}

/**
 * Copies a session created with `mirror: false` to secondary storage, once its
 * transaction has committed. Only the session and user are copied: a
 * `CreatedSession`'s raw token never reaches the store.
 */
export function mirrorSession(ctx: Ctx, value: SessionWithUser): Promise<void> {
  return mirror(ctx, { session: value.session, user: value.user })
}

/** Secondary storage keeps each entry for the session's remaining lifetime, so it never outlives the row. */
async function mirror(ctx: Ctx, value: SessionWithUser): Promise<void> {
  if (!ctx.secondaryStorage) return
  const remaining = Math.floor((value.session.expiresAt.getTime() - ctx.clock.now().getTime()) / 1000)
  if (remaining <= 0) return
  await ctx.secondaryStorage.set(storageKey(value.session.token), JSON.stringify(value), remaining)
}

function parseStored(ctx: Ctx, text: string): SessionWithUser | null {
  try {
    const parsed = JSON.parse(text) as { session?: Row; user?: Row }
    if (!parsed.session || !parsed.user) return null
    return {
      session: reviveDates<Session>(ctx.schema, 'session', parsed.session),
      user: reviveDates<User>(ctx.schema, 'user', parsed.user),
    }
  } catch {
    return null
  }
}
