/**
 * @module
 * The active organization (and team) lives on the session row
 * (`session.activeOrganizationId`, docs/organization.md#tables). Changing it
 * updates the row, the caller's cookie cache and the secondary-storage
 * mirror, so the next read of the session, wherever it is served from, sees
 * the change. `updatedAt` is kept: switching organizations is not a session
 * refresh (docs/sessions.md#lifetimes-seconds).
 *
 * What gets re-signed and mirrored is always read from the database, never
 * the caller's `ctx.session`: with the cookie cache on, that is the signed
 * copy the browser sent, and signing it again with a fresh expiry (or
 * copying it into secondary storage for every session of the user) would let
 * a user who keeps switching organizations keep a stale user forever — a
 * demoted role, a changed email (docs/organization.md#security).
 */
import { publicRow, refreshUserInStorage, sessionSource, setCookieCache, type Row, type Session, type User } from '@gatehouse/core'
import type { ResolvedOptions } from '../options.js'
import type { OrgContext, SessionContext } from './caller.js'

export interface ActiveFields {
  /** Left out: the organization stays what the session row has (clearing only the active team). */
  readonly activeOrganizationId?: string | null
  readonly activeTeamId?: string | null
}

/**
 * @example
 * await setActive(ctx, options, { activeOrganizationId: organization.id })
 */
export async function setActive(ctx: SessionContext, options: ResolvedOptions, fields: ActiveFields): Promise<void> {
  // An API key's session is no row: nothing to switch after a create or an accept (set-active refuses it up front; docs/sessions.md#credentials-other-than-the-cookie).
  if (!sessionSource(ctx.session).mayChangeCredentials) return
  const current = await ctx.db.findOne<Session & Row & { user: (User & Row) | null }>({
    model: 'session',
    where: { field: 'id', value: ctx.session.session.id },
    join: { user: { model: 'user', on: { field: 'userId', references: 'id' } } },
  })
  // Revoked (or its user deleted) since the cookie cache was signed: nothing to switch.
  if (!current?.user) return
  const update: Row = { updatedAt: current.updatedAt }
  if (fields.activeOrganizationId !== undefined) update.activeOrganizationId = fields.activeOrganizationId
  if (options.teams.enabled) update.activeTeamId = fields.activeTeamId ?? null
  const updated = await ctx.db.update<Session & Row>({ model: 'session', where: { field: 'id', value: current.id }, update })
  if (!updated) return
  const user = publicRow(ctx.auth.schema, 'user', current.user)
  setCookieCache(ctx, { session: publicRow(ctx.auth.schema, 'session', updated), user })
  await refreshUserInStorage(ctx.auth, user)
}

/**
 * Clears the active organization on every session that has `organizationId`
 * active, or only on `userId`'s sessions (leaving, being removed, deleting
 * the organization: docs/organization.md#behaviour).
 */
export function clearActive(
  ctx: OrgContext & { readonly session?: SessionContext['session'] },
  options: ResolvedOptions,
  target: { readonly organizationId: string; readonly userId?: string },
): Promise<void> {
  const update: Row = { activeOrganizationId: null }
  if (options.teams.enabled) update.activeTeamId = null
  return clearSessions(ctx, { field: 'activeOrganizationId', value: target.organizationId }, target.userId, update)
}

/** Clears the active team on the sessions that have `teamId` active (all, or `userId`'s). */
export function clearActiveTeam(
  ctx: OrgContext & { readonly session?: SessionContext['session'] },
  target: { readonly teamId: string; readonly userId?: string },
): Promise<void> {
  return clearSessions(ctx, { field: 'activeTeamId', value: target.teamId }, target.userId, { activeTeamId: null })
}

async function clearSessions(
  ctx: OrgContext & { readonly session?: SessionContext['session'] },
  active: { readonly field: string; readonly value: string },
  userId: string | undefined,
  fields: Row,
): Promise<void> {
  const sessions = await ctx.db.findMany<Session & Row>({
    model: 'session',
    where: [active, ...(userId !== undefined ? [{ field: 'userId', value: userId }] : [])],
  })
  const users = new Set<string>()
  let callers: (Session & Row) | null = null
  for (const session of sessions) {
    const updated = await ctx.db.update<Session & Row>({
      model: 'session',
      where: { field: 'id', value: session.id },
      update: { ...fields, updatedAt: session.updatedAt },
    })
    users.add(session.userId)
    if (updated && ctx.session && updated.id === ctx.session.session.id) callers = updated
  }
  if (!callers && !ctx.auth.secondaryStorage) return
  for (const id of users) {
    // The user row, not the caller's cached copy: see the module comment.
    const user = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: id } })
    if (!user) continue
    if (callers && callers.userId === id) {
      setCookieCache(ctx, { session: publicRow(ctx.auth.schema, 'session', callers), user: publicRow(ctx.auth.schema, 'user', user) })
    }
    await refreshUserInStorage(ctx.auth, user)
  }
}
