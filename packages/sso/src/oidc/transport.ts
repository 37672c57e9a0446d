/**
 * @module
 * How the OpenID Connect side reaches an organization's identity provider
 * (docs/sso.md#urls-the-server-fetches): every request (discovery, JWKS,
 * token, UserInfo) goes through the plugin's safe fetch (net/safe-fetch.ts),
 * which checks the address each connection resolves to, follows redirects
 * only under the same rule, and caps time and size. An endpoint an admin typed
 * is an SSRF vector otherwise: a discovery URL at `169.254.169.254` would
 * make the server read its own cloud credentials for the caller.
 *
 * oauth4webapi takes the safe fetch as `[customFetch]`. It refuses plain
 * http by itself unless told otherwise; it is told so only for a URL whose
 * origin is trusted (`trustedOrigins`, an internal IdP), which is the one
 * case the safe fetch lets http through as well.
 */
import type { AuthContext, EndpointContext } from '@gatehouse/core'
import * as oauth from 'oauth4webapi'
import { checkFetchableUrl } from '../net/policy.js'
import { fetchTrust } from '../net/auth-trust.js'
import { createSafeFetch } from '../net/safe-fetch.js'

const fetches = new WeakMap<AuthContext, typeof fetch>()

/**
 * The safe fetch of this auth instance: trusted origins are the exact entries
 * of its `trustedOrigins` (net/auth-trust.ts), never its base URL or a pattern.
 *
 * @example
 * const response = await providerFetch(ctx)('https://idp.example.com/.well-known/openid-configuration')
 */
export function providerFetch(ctx: Pick<EndpointContext, 'auth'>): typeof fetch {
  let found = fetches.get(ctx.auth)
  if (!found) {
    const auth = ctx.auth
    found = createSafeFetch({ trustedOrigins: fetchTrust(auth) })
    fetches.set(auth, found)
  }
  return found
}

/**
 * Whether a browser may be sent to `value` (the authorization endpoint): an
 * https URL, or any http(s) URL on a trusted origin, without credentials.
 * Never `javascript:` or `data:`, no plain-http hop an attacker on the
 * network could rewrite.
 *
 * @example
 * isAllowedEndpoint(ctx, 'http://10.0.0.5/token') // false, unless that origin is trusted
 */
export function isAllowedEndpoint(ctx: Pick<EndpointContext, 'auth'>, value: string): boolean {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false
  if (url.username !== '' || url.password !== '') return false
  return url.protocol === 'https:' || ctx.auth.isTrustedOrigin(url.origin)
}

/**
 * Null when the server may fetch `value` as far as its text tells (lane B's rule:
 * https to a host that is not a refused address literal, or a trusted origin);
 * otherwise a phrase saying why, for the admin's 400.
 *
 * @example
 * fetchableEndpoint(ctx, 'https://169.254.169.254/token') // 'https://169.254.169.254/token is not allowed (address)'
 */
export function fetchableEndpoint(ctx: Pick<EndpointContext, 'auth'>, value: string): string | null {
  const checked = checkFetchableUrl(value, { trustedOrigins: fetchTrust(ctx.auth) })
  return checked.ok ? null : `${checked.error.url} is not allowed (${checked.error.reason}): https to a public host, or a trusted origin`
}

/** Options for an oauth4webapi request to `url` through the safe fetch. */
export function requestOptions(
  ctx: Pick<EndpointContext, 'auth'>,
  url: string | URL | undefined,
): { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]?: boolean } {
  const parsed = url === undefined ? undefined : new URL(url)
  // http reaches the wire only for a trusted origin: the safe fetch refuses every other one.
  const insecure = parsed !== undefined && parsed.protocol === 'http:' && fetchTrust(ctx.auth)(parsed)
  return { [oauth.customFetch]: providerFetch(ctx), ...(insecure ? { [oauth.allowInsecureRequests]: true } : {}) }
}

/**
 * oauth4webapi's client for a provider, with the auth's clock expressed as a
 * skew from the wall clock (oauth4webapi reads the wall clock; tests move the auth's).
 */
export function oauthClient(ctx: Pick<EndpointContext, 'clock'>, clientId: string): oauth.Client {
  const skew = Math.round((ctx.clock.now().getTime() - Date.now()) / 1000)
  return { client_id: clientId, ...(skew === 0 ? {} : { [oauth.clockSkew]: skew }) }
}
