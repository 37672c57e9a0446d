/**
 * @module
 * Whose billing a reading route shows. Without `referenceId` (or with the
 * caller's own id) it is the signed-in user's. Otherwise `referenceId` is
 * an organization id (docs/billing.md#organization-billing),
 * shown only to a member whose roles grant the configured permissions, as
 * @gatehouse/organization decides them — the same check its own routes
 * make, run-time roles included. The organization plugin is optional: it is
 * found among the auth's plugins, not imported.
 */
import { AuthError, type AuthContext, type ErrorDefinition, type Store } from '@gatehouse/core'
import { BillingErrors } from '../errors.js'
import type { PermissionRequest, ResolvedBillingOptions } from '../options.js'
import type { OutboundRuntime } from '../outbound/runtime.js'
import { customerForReference, customerForUser } from '../read/customers.js'
import type { BillingCustomer } from '../read/shapes.js'

/** What billing needs of the organization plugin: its `authorize` answer. */
interface OrganizationAuthority {
  authorize(
    db: Store,
    input: { readonly organizationId: string; readonly userId: string; readonly permissions: PermissionRequest },
  ): Promise<{ readonly ok: true } | { readonly ok: false; readonly reason: 'not-member' | 'forbidden' }>
}

/** The registered organization plugin, when it offers `authorize` (@gatehouse/organization does). */
function organizationAuthority(auth: AuthContext): OrganizationAuthority | null {
  const plugin = auth.plugins.find((candidate) => candidate.id === 'organization')
  if (!plugin || !('authorize' in plugin) || typeof plugin.authorize !== 'function') return null
  // A function, checked just above; its contract is the organization plugin's `authorize`.
  const authorize = plugin.authorize as OrganizationAuthority['authorize']
  return { authorize: (db, input) => authorize(db, input) }
}

/**
 * Checks that `userId` may act on `organizationId`'s billing; throws the
 * organization plugin's refusal as billing's code (`forbidden` for a member
 * without the permission).
 *
 * @example
 * await authorizeOrganization({ db, auth }, options, { userId, organizationId }, BillingErrors.YOU_ARE_NOT_ALLOWED_TO_MANAGE_THIS_BILLING)
 */
export async function authorizeOrganization(
  ctx: { readonly db: Store; readonly auth: AuthContext },
  options: ResolvedBillingOptions,
  input: { readonly userId: string; readonly organizationId: string },
  forbidden: ErrorDefinition,
): Promise<void> {
  const authority = organizationAuthority(ctx.auth)
  if (!options.organizationPermissions || !authority) throw new AuthError(BillingErrors.ORGANIZATION_BILLING_IS_NOT_ENABLED)
  const verdict = await authority.authorize(ctx.db, { ...input, permissions: options.organizationPermissions })
  if (!verdict.ok) throw new AuthError(verdict.reason === 'not-member' ? BillingErrors.YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION : forbidden)
}

/**
 * @example
 * const customer = await billingOwner({ db, auth }, options, { userId: session.user.id, referenceId: query.referenceId })
 */
export async function billingOwner(
  ctx: { readonly db: Store; readonly auth: AuthContext },
  options: ResolvedBillingOptions,
  input: { readonly userId: string; readonly referenceId?: string | undefined },
): Promise<BillingCustomer | null> {
  const { userId, referenceId } = input
  if (referenceId === undefined || referenceId === userId) return customerForUser(ctx.db, userId, { linkByEmail: options.linkCustomersByEmail })
  await authorizeOrganization(ctx, options, { userId, organizationId: referenceId }, BillingErrors.YOU_ARE_NOT_ALLOWED_TO_READ_THIS_BILLING)
  return customerForReference(ctx.db, referenceId)
}

/**
 * Whose billing a managing route (checkout, customer portal) acts on, as an
 * external customer id: `referenceId` when it names another than the user,
 * once the user may manage that organization's billing; otherwise the user,
 * whose customer still owed to the platform is pushed first so the platform
 * finds it (docs/billing.md#outbound-calls).
 *
 * @example
 * const referenceId = await managedReference({ db, auth }, options, outbound, { userId: user.id, referenceId: body.referenceId })
 */
export async function managedReference(
  ctx: { readonly db: Store; readonly auth: AuthContext },
  options: ResolvedBillingOptions,
  outbound: Pick<OutboundRuntime, 'syncBefore'>,
  input: { readonly userId: string; readonly referenceId?: string | undefined },
): Promise<string> {
  const { userId, referenceId = userId } = input
  if (referenceId !== userId) await authorizeOrganization(ctx, options, { userId, organizationId: referenceId }, BillingErrors.YOU_ARE_NOT_ALLOWED_TO_MANAGE_THIS_BILLING)
  else await outbound.syncBefore(ctx.auth, userId)
  return referenceId
}
