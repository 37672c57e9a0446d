/**
 * @module
 * What this plugin needs of the organization plugin, found among the auth's
 * plugins rather than imported: its resolved options (roles, limits) live
 * in the instance the application configured. `authorize` answers who may
 * manage tokens, the same check the organization's own routes make;
 * `provisionMember` adds a member within the membership limit and the roles
 * the organization defines; `memberRules` names the creator role (owners,
 * which SCIM never changes) and the team settings and limits.
 */
import { AuthError, type AuthContext } from '@gatehouse/core'
import { findOrganizationAuthority, parseRoles, type MemberRules, type OrganizationAuthority } from '@gatehouse/organization'
import { ScimErrors } from '../errors.js'

export type { MemberRules, OrganizationAuthority }

/**
 * The registered organization plugin's services (@gatehouse/organization's `findOrganizationAuthority`).
 *
 * @throws AuthError `ORGANIZATION_PLUGIN_REQUIRED` (500) without it; the
 * plugin's `init` refuses to start in that case, so this is never reached in practice.
 *
 * @example
 * const { rules } = organizationAuthority(ctx.auth) // rules.creatorRole === 'owner'
 */
export function organizationAuthority(auth: Pick<AuthContext, 'plugins'>): OrganizationAuthority {
  const authority = findOrganizationAuthority(auth)
  if (!authority) throw new AuthError(ScimErrors.ORGANIZATION_PLUGIN_REQUIRED)
  return authority
}

/** Whether a member row holds the creator role: SCIM never changes such a member (docs/scim.md#owners). */
export function isOwner(rules: MemberRules, member: { readonly role?: unknown }): boolean {
  return typeof member.role === 'string' && parseRoles(member.role).includes(rules.creatorRole)
}
