/**
 * @module
 * Ending a member's access when the directory deactivates or removes them
 * (docs/scim.md#suspension), inside the transaction of that change, so the
 * answer to the directory's request comes after the sessions are gone:
 *
 * - a user who belongs to no other organization is the directory's alone:
 *   every session ends and every plugin's grants with them (core's
 *   `revokeUserCredentials`: OAuth tokens of the OpenID Provider, pending
 *   second factors, impersonations);
 * - a user who also belongs to another organization keeps what is theirs
 *   there: only the sessions that have this organization active end. Their
 *   other sessions cannot enter this organization any more (the organization
 *   plugin refuses a suspended or removed member).
 */
import { deleteSessions, revokeUserCredentials, type AuthContext, type Row, type Session, type Store } from '@gatehouse/core'

/**
 * @example
 * await ctx.db.transaction(async (tx) => { ...; await endAccess(ctx.auth, tx, { organizationId, userId }) })
 */
export async function endAccess(auth: AuthContext, tx: Store, target: { readonly organizationId: string; readonly userId: string }): Promise<void> {
  if (!(await belongsElsewhere(tx, target))) {
    await revokeUserCredentials(auth, { userId: target.userId, reason: 'sessions-revoked', db: tx })
    return
  }
  const sessions = await tx.findMany<Session & Row>({
    model: 'session',
    where: [
      { field: 'userId', value: target.userId },
      { field: 'activeOrganizationId', value: target.organizationId },
    ],
  })
  await deleteSessions(auth, sessions.map((session) => session.token), tx)
}

/** Whether the user is a member of an organization other than `organizationId`. */
export async function belongsElsewhere(db: Store, target: { readonly organizationId: string; readonly userId: string }): Promise<boolean> {
  const others = await db.count({
    model: 'member',
    where: [
      { field: 'userId', value: target.userId },
      { field: 'organizationId', operator: 'ne', value: target.organizationId },
    ],
  })
  return others > 0
}
