/**
 * @module
 * Sessions in the database, mirrored in secondary storage when one is
 * configured (docs/sessions.md#what-is-stored-where). The client holds a random token of 190 bits; the
 * database holds only its SHA-256, so a dump of the session table yields no
 * usable session. Reads go to secondary storage first, then to the database
 * with one query (session joined with its user).
 *
 * A revoked session stays revoked, in every process sharing the storage
 * (docs/sessions.md#revocation-and-racing-reads). Two kinds of calls touch a copy:
 *
 * - a writer (a read that missed the store, a refresh, a user change, a new
 *   session) has read or written the row; it SETs the copy, then reads the
 *   row again (CONFIRM) and deletes the copy if the row is gone, or, for one
 *   session, if its user row is newer than the user the copy holds;
 * - a revoker deletes the copy (PRE), deletes the row and COMMITs, then
 *   deletes the copy again (POST).
 *
 * A writer's SET lands in the store either before POST, which removes it, or
 * after POST; then its CONFIRM starts after POST, so after the COMMIT, and
 * finds the row gone: the writer deletes its own copy. Whatever the
 * interleaving, the last operation on the key is a delete. This needs nothing
 * but get/set/delete from the store, and only that a read started after a
 * commit returned sees the commit (any single primary; not a lagging replica).
 * A hit never reads the database; a miss or a refresh costs one more read.
 *
 * PRE is what makes a revocation hold across processes and restarts: it must
 * succeed (`deleteOrThrow`), else the revocation fails with 503 before any
 * row changes (inside the caller's transaction, which rolls back). A failed
 * delete that is only remembered by one process would leave other processes,
 * and this one after a restart, accepting the copy when the store returns.
 * POST and a writer's clean-up go through the resilient store: if the store
 * fails in the milliseconds after PRE succeeded, the copy a racing writer
 * put back is deleted when this process next reaches the store, and only if
 * it stops first does that copy live on (docs/secondary-storage.md#when-redis-is-down).
 */
import type { Row } from '../db/adapter.js'
import { publicRow, reviveDates } from '../db/output.js'
import { sha256Base64url } from '../crypto/keys.js'
import { generateToken } from '../crypto/random.js'
import type { AuthContext } from '../endpoint/context.js'
import type { Store } from '../db/store.js'
import { deleteOrThrow } from '../storage/resilient.js'
import type { SecondaryStorage } from '../storage/types.js'
import { sessionOptions } from './session-options.js'
import type { Session, SessionWithUser, User } from '../types/rows.js'
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'

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

export interface CreateSessionDetails {
  ipAddress?: string | null
  userAgent?: string | null
  db?: Store
  /** Seconds; a shorter lifetime than the configured one (an admin's impersonation session). */
  expiresIn?: number
  /** Plugin fields of the session row (`impersonatedBy`). */
  fields?: Row
  /**
   * With `db` a transaction, the copy in secondary storage is written once
   * it commits, so the store never holds a session that a rollback took
   * back; false leaves the copy to the caller (`mirrorSession`).
   */
  mirror?: boolean
  /**
   * The user's `credentialVersion` as read before the sign-in checked its
   * credential (a password, a link, a second factor); defaults to the
   * `user` row's own. The session is written only while the user still
   * holds it (docs/sessions.md#sign-ins-racing-a-revocation).
   */
  credentialVersion?: string | null
  /** How the sign-in was proven (RFC 8176 values: `pwd`, `otp`, `hwk`, `mfa`, ...); kept for the ID Token's `amr`. */
  amr?: readonly string[]
}

/**
 * Creates a session for `user`, unless the user's credentials were revoked
 * since the caller read them: a password sign-in that verified the old
 * password while a reset, a "sign out everywhere" or a first proof of the
 * mailbox committed would otherwise leave a fresh session that the revocation
 * never saw. The user row is locked and its `credentialVersion` compared with
 * the one the caller read before its check, in the transaction that inserts the
 * session; every revoker changes the version under the same lock
 * (`revokeUserCredentials`). So either the sign-in commits first and the
 * revoker's sweep deletes its session, or the revoker commits first and the
 * sign-in is refused with `CREDENTIALS_CHANGED` (docs/sessions.md#sign-ins-racing-a-revocation).
 *
 * Pass the user row read before the credential was checked (its
 * `credentialVersion` is the one compared), or the version explicitly; a user
 * object without the field (a public row) is not checked.
 *
 * @throws AuthError `CREDENTIALS_CHANGED` (401) when the version moved on.
 *
 * @example
 * const user = await findUserByEmail(ctx.db, email) // before the password check
 * if (!(await auth.passwords.verify(account.password, password))) throw new AuthError(CoreErrors.INVALID_EMAIL_OR_PASSWORD)
 * const session = await createSession(auth, user, { ipAddress: ctx.ip, amr: ['pwd'] })
 */
export async function createSession(ctx: Ctx, user: User, details: CreateSessionDetails = {}): Promise<CreatedSession> {
  const token = generateToken(ctx.random, SESSION_TOKEN_LENGTH)
  const now = ctx.clock.now()
  const expiresIn = details.expiresIn ?? sessionOptions(ctx.options).expiresIn
  const expected = details.credentialVersion !== undefined ? details.credentialVersion : (user.credentialVersion as string | null | undefined)
  const insert = async (db: Store): Promise<Session & Row> => {
    if (expected !== undefined) await requireCredentialVersion(db, user.id, expected)
    return db.create<Session & Row>({
      model: 'session',
      data: {
        ...details.fields,
        userId: user.id,
        token: hashSessionToken(token),
        expiresAt: new Date(now.getTime() + expiresIn * 1000),
        ipAddress: details.ipAddress ?? null,
        userAgent: details.userAgent ?? null,
        amr: details.amr && details.amr.length > 0 ? [...new Set(details.amr)].join(' ') : null,
      },
    })
  }
  const session = details.db ? await insert(details.db) : expected !== undefined ? await ctx.db.transaction(insert) : await insert(ctx.db)
  const result = { session: publicRow(ctx.schema, 'session', session), user: publicRow(ctx.schema, 'user', user) }
  if (details.mirror !== false) {
    // The copy's CONFIRM must read committed rows, and on a one-connection database it cannot run beside the transaction.
    if (details.db) await details.db.afterCommit(() => mirror(ctx, result).then(() => undefined))
    else await mirror(ctx, result)
  }
  return { ...result, token }
}

/**
 * Locks the user row and refuses when its `credentialVersion` is no longer
 * `expected` (a revocation committed since it was read). Inside a
 * transaction; the lock is held until it ends, so a revoker waits for the
 * session this transaction writes and its sweep sees it.
 *
 * @throws AuthError `CREDENTIALS_CHANGED`, also when the user is gone.
 *
 * @example
 * await db.transaction(async (tx) => {
 *   await requireCredentialVersion(tx, pending.userId, pending.credentialVersion)
 *   // ... lock the plugin's own rows, then createSession(auth, user, { db: tx, credentialVersion: pending.credentialVersion })
 * })
 */
export async function requireCredentialVersion(db: Store, userId: string, expected: string | null): Promise<void> {
  const locked = await db.lock<User & Row>({ model: 'user', where: { field: 'id', value: userId } })
  if (!locked || ((locked.credentialVersion as string | null | undefined) ?? null) !== (expected ?? null)) {
    throw new AuthError(CoreErrors.CREDENTIALS_CHANGED)
  }
}

/**
 * Moves the user's `credentialVersion` on, so that no sign-in that read the
 * old one can create a session (`createSession`). The write locks the user
 * row until the caller's transaction ends. It bypasses database hooks and
 * `updatedAt`: it is bookkeeping, not a change of the user an application
 * should hear about.
 */
export async function bumpCredentialVersion(ctx: Pick<AuthContext, 'random'>, db: Store, userId: string): Promise<void> {
  await db.adapter.update({
    model: 'user',
    where: { field: 'id', value: userId },
    update: { credentialVersion: generateToken(ctx.random, CREDENTIAL_VERSION_LENGTH) },
  })
}

/** 22 characters of 62: ~131 bits, so two versions never repeat by chance. */
const CREDENTIAL_VERSION_LENGTH = 22

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
  // The row may have been revoked since it was read: then the copy is gone again, and so is the session.
  if (!(await mirror(ctx, result))) return null
  return result
}

/**
 * Extends a session to `now + expiresIn` (the refresh past `updateAge`), but
 * never past `end`, the session's hard end (docs/plugins.md#a-sessions-hard-end);
 * null when it no longer exists.
 */
export async function refreshSession(ctx: Ctx, current: SessionWithUser, end?: Date): Promise<SessionWithUser | null> {
  const now = ctx.clock.now()
  const { expiresIn } = sessionOptions(ctx.options)
  const extended = now.getTime() + expiresIn * 1000
  const updated = await ctx.db.update<Session & Row>({
    model: 'session',
    where: { field: 'id', value: current.session.id },
    update: { expiresAt: new Date(end === undefined ? extended : Math.min(extended, end.getTime())), updatedAt: now },
  })
  if (!updated) return null
  const result = { session: publicRow(ctx.schema, 'session', updated), user: current.user }
  if (!(await mirror(ctx, result))) return null
  return result
}

/**
 * Revokes sessions by their stored token hashes, in the database and in
 * secondary storage (PRE, delete, POST in the module comment). With `db` a
 * transaction, the rows go with it and POST follows its commit.
 *
 * @throws StorageUnavailableError when a copy cannot be deleted before the
 * rows are: nothing was deleted (the caller's transaction rolls back), and
 * the request answers 503 with Retry-After.
 *
 * @example
 * await db.transaction(async (tx) => {
 *   await tx.update({ model: 'account', where, update: { password } })
 *   await deleteSessions(auth, hashes, tx)
 * })
 */
export async function deleteSessions(ctx: Ctx, tokenHashes: readonly string[], db: Store = ctx.db): Promise<number> {
  if (tokenHashes.length === 0) return 0
  const storage = ctx.secondaryStorage
  const keys = tokenHashes.map(storageKey)
  if (storage) await Promise.all(keys.map((key) => deleteOrThrow(storage, key)))
  const deleted = await db.deleteMany({ model: 'session', where: { field: 'token', operator: 'in', value: [...tokenHashes] } })
  if (storage) await db.afterCommit(() => deleteCopies(storage, keys))
  return deleted
}

/**
 * Deletes a session found expired. Not a revocation: its copy expires with it
 * and no writer puts an expired session back, so a store fault here is the
 * resilient store's to retry, never a 503.
 */
export async function deleteExpiredSession(ctx: Ctx, tokenHash: string): Promise<void> {
  await ctx.db.deleteMany({ model: 'session', where: { field: 'token', value: tokenHash } })
  if (ctx.secondaryStorage) await ctx.secondaryStorage.delete(storageKey(tokenHash))
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
  const storage = ctx.secondaryStorage
  if (!storage) return
  const sessions = await userSessions(ctx, user.id)
  const visible = publicRow(ctx.schema, 'user', user as User & Row)
  const written = await Promise.all(sessions.map((session) => writeCopy(ctx, storage, { session, user: visible })))
  // A session revoked since the list was read must not keep the copy just written (CONFIRM).
  await dropOrphanedCopies(ctx, storage, sessions.filter((_, index) => written[index]).map((session) => session.token))
}

/**
 * Copies a session created with `mirror: false` to secondary storage, once its
 * transaction has committed. Only the session and user are copied: a
 * `CreatedSession`'s raw token never reaches the store.
 */
export async function mirrorSession(ctx: Ctx, value: SessionWithUser): Promise<void> {
  await mirror(ctx, { session: value.session, user: value.user })
}

/**
 * A writer's SET and CONFIRM (module comment): false when the row turned out
 * to be gone, and the copy with it. Without secondary storage, true.
 */
async function mirror(ctx: Ctx, value: SessionWithUser): Promise<boolean> {
  const storage = ctx.secondaryStorage
  if (!storage || !(await writeCopy(ctx, storage, value))) return true
  const gone = await dropOrphanedCopies(ctx, storage, [value.session.token], value.user)
  return gone.length === 0
}

/** Secondary storage keeps each entry for the session's remaining lifetime, so it never outlives the row. False if expired (nothing written). */
async function writeCopy(ctx: Ctx, storage: SecondaryStorage, value: SessionWithUser): Promise<boolean> {
  const remaining = Math.floor((value.session.expiresAt.getTime() - ctx.clock.now().getTime()) / 1000)
  if (remaining <= 0) return false
  await storage.set(storageKey(value.session.token), JSON.stringify(value), remaining)
  return true
}

/**
 * CONFIRM: reads the rows of copies just written and deletes the copies whose
 * row is gone; answers their hashes. If the read fails, every copy is deleted
 * before the error goes on: an unconfirmed copy may be a revoked session's.
 */
async function dropOrphanedCopies(ctx: Ctx, storage: SecondaryStorage, tokenHashes: readonly string[], writtenUser?: User): Promise<string[]> {
  if (tokenHashes.length === 0) return []
  let alive: Set<string>
  let stale = false
  try {
    const [only] = tokenHashes
    if (tokenHashes.length === 1 && only !== undefined) {
      const row = await ctx.db.findOne<Session & Row & { user: (User & Row) | null }>({
        model: 'session',
        where: { field: 'token', value: only },
        join: { user: { model: 'user', on: { field: 'userId', references: 'id' } } },
      })
      alive = new Set(row ? [row.token] : [])
      // A copy of one session, written with the user as read before a change of the user committed (a
      // read that missed the store racing update-user or a role change): the user row is newer than the
      // copy's, so the copy goes and the next read takes the fresh row (docs/sessions.md#revocation-and-racing-reads).
      stale = row?.user !== null && row?.user !== undefined && writtenUser !== undefined && isNewer(row.user.updatedAt, writtenUser.updatedAt)
    } else {
      const rows = await ctx.db.findMany<Session & Row>({ model: 'session', where: { field: 'token', operator: 'in', value: [...tokenHashes] } })
      alive = new Set(rows.map((row) => row.token))
    }
  } catch (error) {
    await deleteCopies(storage, tokenHashes.map(storageKey))
    throw error
  }
  const gone = tokenHashes.filter((hash) => !alive.has(hash))
  await deleteCopies(storage, (stale ? tokenHashes : gone).map(storageKey))
  return gone
}

function isNewer(current: unknown, written: unknown): boolean {
  const time = (value: unknown) => (value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : Number.NaN)
  return time(current) > time(written)
}

/** POST and a writer's clean-up: through the resilient store, which retries a failed delete when the store answers again. */
async function deleteCopies(storage: SecondaryStorage, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((key) => storage.delete(key)))
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
