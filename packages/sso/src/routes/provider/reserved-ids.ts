/**
 * @module
 * Which providerIds an SSO provider may not take (docs/sso.md#provider-ids).
 * A provider's accounts are core `account` rows keyed by (providerId,
 * accountId), so a providerId shared with another way in would let the IdP
 * sign in as whoever holds an account of that other kind with the same id:
 * `credential` (whose accountId is the user id), the configured social
 * providers, the ids other plugins write accounts under, and any providerId
 * an account row already carries (a social provider since removed from the
 * configuration still has its accounts). The format is narrow too: the id
 * goes into URLs (`/sso/callback/:providerId`) and logs.
 */
import type { EndpointContext } from '@gatehouse/core'

const FORMAT = /^[a-z0-9][a-z0-9_-]{0,63}$/i

/** Account kinds written by core and the first-party plugins, and the leading library's built-in ones. */
const BUILT_IN = new Set(['credential', 'email-otp', 'magic-link', 'phone-number', 'anonymous', 'siwe', 'passkey', 'sso'])

/**
 * @example
 * isValidProviderId('acme-okta') // true
 * isValidProviderId('../admin') // false
 */
export function isValidProviderId(providerId: string): boolean {
  return FORMAT.test(providerId)
}

/**
 * Whether `providerId` is taken by another way of signing in. Compared
 * case-insensitively: ids that differ only in case would confuse people and logs.
 *
 * @example
 * if (await isReservedProviderId(ctx, 'github')) throw new AuthError(SsoErrors.PROVIDER_ID_RESERVED)
 */
export async function isReservedProviderId(ctx: Pick<EndpointContext, 'auth' | 'db'>, providerId: string): Promise<boolean> {
  const id = providerId.toLowerCase()
  const social = [...ctx.auth.socialProviders.keys(), ...Object.keys(ctx.auth.options.socialProviders ?? {})]
  if (BUILT_IN.has(id) || social.some((name) => name.toLowerCase() === id)) return true
  return (await ctx.db.count({ model: 'account', where: { field: 'providerId', value: providerId } })) > 0
}
