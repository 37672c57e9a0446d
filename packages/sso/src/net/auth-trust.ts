/**
 * @module
 * Which origins the SSO fetches trust (docs/sso.md#urls-the-server-fetches):
 * only the exact entries of createAuth's `trustedOrigins`. Core's
 * `isTrustedOrigin` is the wrong question here: it also trusts the app's own
 * base URL and wildcard patterns, and a pattern such as
 * `https://*.example.com` would switch the address check off for every
 * subdomain, including a tenant's custom domain pointed at an internal
 * address. Entries holding `*` trust nothing for a fetch.
 */
import type { AuthContext } from '@gatehouse/core'
import { exactOrigins } from './policy.js'

const trusted = new WeakMap<AuthContext, (url: URL) => boolean>()

/**
 * @example
 * createSafeFetch({ trustedOrigins: fetchTrust(ctx.auth) })
 */
export function fetchTrust(auth: AuthContext): (url: URL) => boolean {
  let found = trusted.get(auth)
  if (!found) {
    found = exactOrigins((auth.options.trustedOrigins ?? []).filter((entry) => !entry.includes('*')))
    trusted.set(auth, found)
  }
  return found
}
