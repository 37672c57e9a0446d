/**
 * @module
 * Who may manage a provider (docs/sso.md#who-manages-a-provider): a member of
 * the provider's organization whose roles grant the action on the `sso`
 * resource (`sso: ['create', 'read', 'update', 'delete']`, owner and admin by
 * default). The question goes to the organization plugin's own `authorize`,
 * the check its routes make, so run-time roles and the application's own
 * roles count exactly as they do there. The organization plugin is found
 * among the auth's plugins, not imported: it brings the resolved options
 * (roles, membership limit) its answers depend on.
 *
 * Why a provider always belongs to an organization (unlike the leading
 * library, where a user may own one): a provider signs people in by the
 * domain of their address, and the people of a domain are an organization's;
 * tying it to one gives it owners who outlive the admin who set it up, a
 * place for the people it provisions, and one permission model for who may
 * change it.
 */
import { AuthError, type AuthContext, type ErrorDefinition, type Store } from '@gatehouse/core'
import { findOrganizationAuthority, type OrganizationAuthority } from '@gatehouse/organization'
import { SsoErrors } from '../errors.js'
import type { ProviderRow } from '../schema.js'
import { findProvider } from './provider-secrets.js'

export type SsoAction = 'create' | 'read' | 'update' | 'delete'

/**
 * The registered organization plugin's `authorize` and `provisionMember`
 * (@gatehouse/organization's `findOrganizationAuthority`).
 *
 * @throws AuthError `ORGANIZATION_PLUGIN_REQUIRED` (500) without it; the
 * plugin's `init` refuses to start so this is never reached in practice.
 *
 * @example
 * const verdict = await organizationAuthority(ctx.auth).authorize(ctx.db, { organizationId, userId, permissions: { sso: ['read'] } })
 */
export function organizationAuthority(auth: Pick<AuthContext, 'plugins'>): OrganizationAuthority {
  const authority = findOrganizationAuthority(auth)
  if (!authority) throw new AuthError(SsoErrors.ORGANIZATION_PLUGIN_REQUIRED)
  return authority
}

/**
 * Throws unless `userId` may do `action` on the providers of `organizationId`:
 * 403 "You are not a member of the organization", or `forbidden`.
 *
 * @example
 * await requireSsoPermission(ctx, { organizationId, userId, action: 'create' }, SsoErrors.YOU_ARE_NOT_ALLOWED_TO_REGISTER_SSO_PROVIDERS)
 */
export async function requireSsoPermission(
  ctx: { readonly db: Store; readonly auth: Pick<AuthContext, 'plugins'> },
  input: { readonly organizationId: string; readonly userId: string; readonly action: SsoAction },
  forbidden: ErrorDefinition,
): Promise<void> {
  const verdict = await organizationAuthority(ctx.auth).authorize(ctx.db, {
    organizationId: input.organizationId,
    userId: input.userId,
    permissions: { sso: [input.action] },
  })
  if (verdict.ok) return
  throw new AuthError(verdict.reason === 'not-member' ? SsoErrors.YOU_ARE_NOT_A_MEMBER_OF_THE_ORGANIZATION : forbidden)
}

/**
 * The provider row, once `userId` may do `action` on it: 404 "Provider not
 * found", 403 "You don't have access to this provider" (a non-member and a
 * member without the permission alike: which organization a provider belongs
 * to is not told to outsiders).
 *
 * @example
 * const row = await requireProviderAccess(ctx, { providerId: body.providerId, userId: session.user.id, action: 'update' })
 */
export async function requireProviderAccess(
  ctx: { readonly db: Store; readonly auth: Pick<AuthContext, 'plugins'> },
  input: { readonly providerId: string; readonly userId: string; readonly action: SsoAction },
): Promise<ProviderRow> {
  const row = await findProvider(ctx.db, input.providerId)
  if (!row) throw new AuthError(SsoErrors.PROVIDER_NOT_FOUND)
  const verdict = await organizationAuthority(ctx.auth).authorize(ctx.db, {
    organizationId: row.organizationId,
    userId: input.userId,
    permissions: { sso: [input.action] },
  })
  if (!verdict.ok) throw new AuthError(SsoErrors.NO_ACCESS_TO_PROVIDER)
  return row
}
