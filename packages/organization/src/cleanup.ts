/**
 * @module
 * Which invitations `auth.api.cleanup()` deletes (docs/organization.md#cleanup):
 * pending ones whose `expiresAt` passed more than a week ago. An expired
 * invitation can no longer be seen, accepted or rejected, so it is garbage;
 * the week keeps it in list-invitations long enough for an admin to notice
 * it lapsed and invite again. Answered invitations (accepted, rejected,
 * canceled) stay whatever their age: they record who invited whom and how it
 * ended, and their number grows only with members, not with time.
 */
import type { GatehousePlugin } from '@gatehouse/core'

/** How long a lapsed pending invitation stays listed before a cleanup removes it. */
export const EXPIRED_INVITATION_GRACE_MS = 7 * 86_400_000

/**
 * The plugin's `cleanup` (docs/core.md#cleanup).
 *
 * @example
 * invitationCleanup(ctx, new Date()) // [{ model: 'invitation', field: 'expiresAt', ... }]
 */
// Typed as the plugin field, so the plugin's inferred type names only core's types.
export const invitationCleanup: NonNullable<GatehousePlugin['cleanup']> = (_ctx, now) => {
  return [
    {
      model: 'invitation',
      field: 'expiresAt',
      before: new Date(now.getTime() - EXPIRED_INVITATION_GRACE_MS),
      where: { field: 'status', value: 'pending' },
    },
  ]
}
