/**
 * @module
 * The URLs a registration names, checked when they are stored
 * (docs/sso.md#urls-the-server-fetches). Two kinds:
 *
 * - URLs the server fetches (discovery, token, userinfo, JWKS, an issuer
 *   discovery is derived from): lane B's `assertFetchableUrl`, https to a
 *   public address, or a trusted origin (an internal IdP). Fetching checks
 *   the resolved address again at connect time (net/safe-fetch.ts); this
 *   early check only turns an obviously internal URL away with a 400 instead
 *   of a failed sign-in later.
 * - URLs a browser is sent to (authorization endpoint, SAML entry point):
 *   https, or any scheme of http(s) on a trusted origin. Never `javascript:`
 *   or `data:`, and no plain-http hop an attacker on the network could
 *   rewrite.
 * - The SAML `callbackUrl`, where an IdP-initiated sign-in lands: a
 *   same-site path or a URL on a trusted origin, as every redirect target
 *   (docs/security.md#redirect-targets-securityredirectsts).
 */
import { AuthError, type EndpointContext } from '@gatehouse/core'
import { SsoErrors } from '../errors.js'
import { fetchTrust } from '../net/auth-trust.js'
import { assertFetchableUrl, isUnsafeUrlError } from '../net/index.js'

type Ctx = Pick<EndpointContext, 'auth'>

function unsafe(field: string): AuthError {
  return new AuthError(SsoErrors.UNSAFE_URL, { message: SsoErrors.UNSAFE_URL.message.replace('{field}', field) })
}

function parse(value: string): URL | null {
  try {
    return new URL(value)
  } catch {
    return null
  }
}

/**
 * 400 unless the server may fetch `value`.
 *
 * @example
 * requireFetchable(ctx, 'oidcConfig.tokenEndpoint', body.oidcConfig.tokenEndpoint)
 */
export function requireFetchable(ctx: Ctx, field: string, value: string): void {
  try {
    assertFetchableUrl(value, { trustedOrigins: fetchTrust(ctx.auth) })
  } catch (error) {
    if (isUnsafeUrlError(error)) throw unsafe(field)
    throw error
  }
}

/**
 * 400 unless a browser may be sent to `value`: https, or http(s) on a trusted origin.
 *
 * @example
 * requireNavigable(ctx, 'samlConfig.entryPoint', body.samlConfig.entryPoint)
 */
export function requireNavigable(ctx: Ctx, field: string, value: string): void {
  const url = parse(value)
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw unsafe(field)
  if (url.protocol === 'http:' && !ctx.auth.isTrustedOrigin(url.origin)) throw unsafe(field)
  if (url.username !== '' || url.password !== '') throw unsafe(field)
}

/**
 * 400 unless `value` is a same-site path (not `//host`, no backslash) or an http(s) URL on a trusted origin.
 *
 * @example
 * requireLandingTarget(ctx, 'samlConfig.callbackUrl', body.samlConfig.callbackUrl)
 */
export function requireLandingTarget(ctx: Ctx, field: string, value: string): void {
  if (value.startsWith('/')) {
    if (value.startsWith('//') || value.includes('\\')) throw unsafe(field)
    return
  }
  const url = parse(value)
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || !ctx.auth.isTrustedOrigin(url.origin)) throw unsafe(field)
}
