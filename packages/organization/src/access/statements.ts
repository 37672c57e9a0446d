/**
 * @module
 * The default permission sets (docs/organization.md#roles-and-permissions):
 * owner may update and delete the organization, admin may update it, member
 * has none; admin and owner may create, update and delete members and
 * teams, and create or cancel invitations. `ac` covers roles created at run
 * time, which owners and admins manage; `sso` the organization's single
 * sign-on providers and their domains (@gatehouse/sso, docs/sso.md#who-manages-a-provider);
 * `apiKey` the organization's own API keys (@gatehouse/api-key, docs/api-key.md#organization-keys).
 */
import { createAccessControl } from './access-control.js'

/**
 * @example
 * const ac = createAccessControl({ ...defaultStatements, project: ['create'] })
 */
export const defaultStatements = {
  organization: ['update', 'delete'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  ac: ['create', 'read', 'update', 'delete'],
  sso: ['create', 'read', 'update', 'delete'],
  apiKey: ['create', 'read', 'update', 'delete'],
} as const

export const defaultAc = createAccessControl(defaultStatements)

export const ownerRole = defaultAc.newRole({
  organization: ['update', 'delete'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  ac: ['create', 'read', 'update', 'delete'],
  sso: ['create', 'read', 'update', 'delete'],
  apiKey: ['create', 'read', 'update', 'delete'],
})

export const adminRole = defaultAc.newRole({
  organization: ['update'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  ac: ['create', 'read', 'update', 'delete'],
  sso: ['create', 'read', 'update', 'delete'],
  apiKey: ['create', 'read', 'update', 'delete'],
})

export const memberRole = defaultAc.newRole({})

/**
 * owner, admin and member: what an application gets unless it passes `roles`.
 *
 * @example
 * hasPermission({ roles: defaultRoles, role: 'admin', permissions: { organization: ['delete'] } }) // false
 */
export const defaultRoles = { owner: ownerRole, admin: adminRole, member: memberRole } as const
