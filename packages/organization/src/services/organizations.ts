/**
 * @module
 * Organization reads and the one delete path. `fullOrganization` is what
 * set-active and get-full-organization answer: the organization with its
 * members (and their users), invitations and, with teams on, teams.
 */
import { AuthError, type Row, type Store } from '@gatehouse/core'
import { OrganizationErrors } from '../errors.js'
import type { Invitation, Organization, ResolvedOptions, Team } from '../options.js'
import { membersWithUsers } from './members.js'

export function findOrganization(db: Store, by: { id: string } | { slug: string }): Promise<Organization | null> {
  const where = 'id' in by ? { field: 'id', value: by.id } : { field: 'slug', value: by.slug }
  return db.findOne<Organization & Row>({ model: 'organization', where })
}

/** The organization, or 400 "Organization not found". */
export async function requireOrganization(db: Store, by: { id: string } | { slug: string }): Promise<Organization> {
  const organization = await findOrganization(db, by)
  if (!organization) throw new AuthError(OrganizationErrors.ORGANIZATION_NOT_FOUND)
  return organization
}

/**
 * Inside a transaction: locks the organization's row until it ends. Every
 * check-then-write on an organization's members, invitations, teams and
 * roles (limits, the last owner) takes this one lock first, so two requests
 * on one organization never both pass a check the other's write would fail.
 */
export async function lockOrganization(tx: Store, organizationId: string): Promise<void> {
  const locked = await tx.lock({ model: 'organization', where: { field: 'id', value: organizationId } })
  // Deleted since the caller resolved it: nothing left to add to.
  if (!locked) throw new AuthError(OrganizationErrors.ORGANIZATION_NOT_FOUND)
}

export async function fullOrganization(db: Store, options: ResolvedOptions, organization: Organization, page: { membersLimit?: number } = {}) {
  const [members, invitations, teams] = await Promise.all([
    membersWithUsers(db, organization.id, page.membersLimit !== undefined ? { limit: page.membersLimit } : {}),
    db.findMany<Invitation & Row>({ model: 'invitation', where: { field: 'organizationId', value: organization.id } }),
    options.teams.enabled
      ? db.findMany<Team & Row>({
          model: 'team',
          where: { field: 'organizationId', value: organization.id },
          sortBy: { field: 'createdAt', direction: 'asc' },
        })
      : Promise.resolve(undefined),
  ])
  return { ...organization, members, invitations, ...(teams ? { teams } : {}) }
}

/**
 * Deletes an organization and everything in it, inside the caller's
 * transaction (members, invitations, then the organization: docs/organization.md#behaviour). Rows
 * are deleted through the store, so the application's delete hooks see each
 * one and may veto, which rolls the whole deletion back.
 */
export async function deleteOrganizationRows(tx: Store, options: ResolvedOptions, organizationId: string): Promise<void> {
  const inOrganization = { field: 'organizationId', value: organizationId }
  if (options.teams.enabled) {
    const teams = await tx.findMany<Team & Row>({ model: 'team', where: inOrganization })
    if (teams.length > 0) {
      await tx.deleteMany({ model: 'teamMember', where: { field: 'teamId', operator: 'in', value: teams.map((team) => team.id) } })
    }
    await tx.deleteMany({ model: 'team', where: inOrganization })
  }
  if (options.dynamicRoles.enabled) await tx.deleteMany({ model: 'organizationRole', where: inOrganization })
  await tx.deleteMany({ model: 'invitation', where: inOrganization })
  await tx.deleteMany({ model: 'member', where: inOrganization })
  await tx.delete({ model: 'organization', where: { field: 'id', value: organizationId } })
}
