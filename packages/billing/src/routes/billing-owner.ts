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
import { AuthError, type AuthContext, type Store } from '@gatehouse/core'
import { BillingErrors } from '../errors.js'
import type { PermissionRequest, ResolvedBillingOptions } from '../options.js'
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
  const authority = organizationAuthority(ctx.auth)
  if (!options.organizationPermissions || !authority) throw new AuthError(BillingErrors.ORGANIZATION_BILLING_IS_NOT_ENABLED)
  const verdict = await authority.authorize(ctx.db, { organizationId: referenceId, userId, permissions: options.organizationPermissions })
  if (!verdict.ok) {
    throw new AuthError(
      verdict.reason === 'not-member' ? BillingErrors.YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION : BillingErrors.YOU_ARE_NOT_ALLOWED_TO_READ_THIS_BILLING,
    )
  }
  return customerForReference(ctx.db, referenceId)
}
