/**
 * @module
 * The active organization (and team) lives on the session row
 * (`session.activeOrganizationId`, docs/organization.md#tables). Changing it
 * updates the row, the caller's cookie cache and the secondary-storage
 * mirror, so the next read of the session, wherever it is served from, sees
 * the change. `updatedAt` is kept: switching organizations is not a session
 * refresh (docs/sessions.md#lifetimes-seconds).
 */
import { refreshUserInStorage, setCookieCache, type Row, type Session, type User } from '@gatehouse/core'
import type { ResolvedOptions } from '../options.js'
import type { OrgContext, SessionContext } from './caller.js'

export interface ActiveFields {
  readonly activeOrganizationId: string | null
  readonly activeTeamId?: string | null
}

/**
 * @example
 * await setActive(ctx, options, { activeOrganizationId: organization.id })
 */
export async function setActive(ctx: SessionContext, options: ResolvedOptions, fields: ActiveFields): Promise<void> {
  const update: Row = { activeOrganizationId: fields.activeOrganizationId, updatedAt: ctx.session.session.updatedAt }
  if (options.teams.enabled) update.activeTeamId = fields.activeTeamId ?? null
  const updated = await ctx.db.update<Session & Row>({ model: 'session', where: { field: 'id', value: ctx.session.session.id }, update })
  if (!updated) return
  setCookieCache(ctx, { session: updated, user: ctx.session.user })
  await refreshUserInStorage(ctx.auth, ctx.session.user)
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
  for (const session of sessions) {
    const updated = await ctx.db.update<Session & Row>({
      model: 'session',
      where: { field: 'id', value: session.id },
      update: { ...fields, updatedAt: session.updatedAt },
    })
    users.add(session.userId)
    if (updated && ctx.session && updated.id === ctx.session.session.id) setCookieCache(ctx, { session: updated, user: ctx.session.user })
  }
  if (!ctx.auth.secondaryStorage) return
  for (const id of users) {
    const user = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: id } })
    if (user) await refreshUserInStorage(ctx.auth, user)
  }
}
