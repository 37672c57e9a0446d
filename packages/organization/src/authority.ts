/**
 * @module
 * The organization plugin's services for other plugins, read from the
 * plugin object the application registered (its roles, limits and team
 * settings are that instance's): `authorize` (the permission check of its
 * roles, run-time roles included: billing's and the SSO plugin's routes),
 * `provisionMember` (a member added inside the caller's transaction, within
 * the membership limit: SSO's just-in-time provisioning) and `rules` (the
 * creator role and the team settings: what SCIM must respect).
 * docs/organization.md#for-other-plugins.
 */
import type { AuthContext, Store } from '@gatehouse/core'
import type { ResolvedOptions } from './options.js'
import type { ProvisionedMember } from './services/provision-member.js'

/** The creator role, whose holders other plugins never change, and the team settings and limits. */
export interface MemberRules {
  readonly creatorRole: string
  readonly teams: ResolvedOptions['teams']
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
 * The registered organization plugin's services, or null when the auth has none.
 *
 * @example
 * const authority = findOrganizationAuthority(ctx.auth)
 * const verdict = await authority?.authorize(ctx.db, { organizationId, userId, permissions: { sso: ['read'] } })
 */
export function findOrganizationAuthority(auth: Pick<AuthContext, 'plugins'>): OrganizationAuthority | null {
  const plugin = auth.plugins.find((candidate) => candidate.id === 'organization') as Partial<Record<string, unknown>> | undefined
  const rules = plugin?.memberRules as MemberRules | undefined
  if (typeof plugin?.authorize !== 'function' || typeof plugin.provisionMember !== 'function' || typeof rules?.creatorRole !== 'string') return null
  // Functions, checked just above; their contract is this package's plugin object (plugin.ts).
  const authorize = plugin.authorize as OrganizationAuthority['authorize']
  const provisionMember = plugin.provisionMember as OrganizationAuthority['provisionMember']
  return { authorize: (db, input) => authorize(db, input), provisionMember: (db, input) => provisionMember(db, input), rules }
}
