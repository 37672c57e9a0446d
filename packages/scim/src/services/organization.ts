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
import { AuthError, type AuthContext, type Store } from '@gatehouse/core'
import { parseRoles, type ProvisionedMember } from '@gatehouse/organization'
import { ScimErrors } from '../errors.js'

export interface MemberRules {
  readonly creatorRole: string
  readonly teams: {
    readonly enabled: boolean
    readonly maximumTeams: number
    readonly maximumMembersPerTeam: number
    readonly allowRemovingAllTeams: boolean
  }
}

export interface OrganizationAuthority {
  authorize(
    db: Store,
    input: { readonly organizationId: string; readonly userId: string; readonly permissions: Readonly<Record<string, readonly string[]>> },
  ): Promise<{ readonly ok: true } | { readonly ok: false; readonly reason: 'not-member' | 'forbidden' }>
  provisionMember(
    db: Store,
    input: { readonly organizationId: string; readonly userId: string; readonly role: string | readonly string[] },
  ): Promise<ProvisionedMember>
  readonly rules: MemberRules
}

/**
 * @throws AuthError `ORGANIZATION_PLUGIN_REQUIRED` (500) without it; the
 * plugin's `init` refuses to start in that case, so this is never reached in practice.
 *
 * @example
 * const { rules } = organizationAuthority(ctx.auth) // rules.creatorRole === 'owner'
 */
export function organizationAuthority(auth: Pick<AuthContext, 'plugins'>): OrganizationAuthority {
  const plugin = auth.plugins.find((candidate) => candidate.id === 'organization') as Record<string, unknown> | undefined
  const rules = plugin?.memberRules as MemberRules | undefined
  if (typeof plugin?.authorize !== 'function' || typeof plugin.provisionMember !== 'function' || typeof rules?.creatorRole !== 'string') {
    throw new AuthError(ScimErrors.ORGANIZATION_PLUGIN_REQUIRED)
  }
  // Functions, checked just above; their contract is the organization plugin's.
  const authorize = plugin.authorize as OrganizationAuthority['authorize']
  const provisionMember = plugin.provisionMember as OrganizationAuthority['provisionMember']
  return { authorize: (db, input) => authorize(db, input), provisionMember: (db, input) => provisionMember(db, input), rules }
}

/** Whether a member row holds the creator role: SCIM never changes such a member (docs/scim.md#owners). */
export function isOwner(rules: MemberRules, member: { readonly role?: unknown }): boolean {
  return typeof member.role === 'string' && parseRoles(member.role).includes(rules.creatorRole)
}
