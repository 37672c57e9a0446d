/**
 * @module
 * Which token rows `auth.api.cleanup()` deletes (docs/oidc-provider.md#cleanup):
 * those whose access token has expired and whose refresh token has expired
 * too, or that never had one. A row with a live refresh token stays even
 * after its access token expired or was revoked, and so does a rotated row
 * until its own refresh expiry: presenting that spent token again must still
 * be recognised as reuse and revoke the family (RFC 9700 §4.14.2). Past its
 * expiry the token is refused anyway. Authorization codes and pending
 * consents live in core's verification table, which core's own cleanup
 * empties; remembered consents and signing keys do not expire here (keys are
 * retired by rotation).
 */
import type { GatehousePlugin } from '@gatehouse/core'

/**
 * The plugin's `cleanup` (docs/core.md#cleanup): two targets, since a target
 * has one cut-off field and both expiries must have passed.
 *
 * @example
 * tokenCleanup(ctx, new Date()) // [{ model: 'oauthAccessToken', field: 'accessTokenExpiresAt', ... }, ...]
 */
// Typed as the plugin field, so the plugin's inferred type names only core's types.
export const tokenCleanup: NonNullable<GatehousePlugin['cleanup']> = (_ctx, now) => {
  return [
    {
      model: 'oauthAccessToken',
      field: 'accessTokenExpiresAt',
      before: now,
      where: { field: 'refreshTokenExpiresAt', operator: 'lt', value: now },
    },
    {
      model: 'oauthAccessToken',
      field: 'accessTokenExpiresAt',
      before: now,
      where: { field: 'refreshTokenExpiresAt', value: null },
    },
  ]
}
