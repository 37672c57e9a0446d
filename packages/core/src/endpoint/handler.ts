/**
 * @module
 * The web-standard entry point: `handler(Request): Promise<Response>`.
 * Order of checks (docs/endpoints.md#what-happens-to-a-request): route
 * (404/405; an OPTIONS preflight for a `cors` endpoint is answered here),
 * origin (a POST must not come from an untrusted origin, cookies or not),
 * rate limit (429), body, then the shared call path of execute.ts.
 */
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import { headersTrusted, lookupClientIp, parseIp, rateLimitKeyForIp, type ClientIpLookup } from '../security/ip.js'
import type { AuthContext } from './context.js'
import { parseCookieHeader } from '../cookies/cookie-header.js'
import { createCookieJar } from '../cookies/cookie-jar.js'
import { LINK_BINDING_COOKIE, type CookieConfig } from '../cookies/cookies.js'
import type { Method } from './define-endpoint.js'
import { executeEndpoint } from './execute.js'
import { HeaderMap } from './header-map.js'
import { incomingFromRequest, type Incoming } from './incoming.js'
import { DEFAULT_MAX_BODY_BYTES, parseBody, queryObject } from './request-body.js'
import { errorOutgoing, toOutgoing, toWebResponse, type Outgoing } from './respond.js'
import type { Router } from './router.js'
import { UNIDENTIFIED_CLIENT_KEY, type RateLimiter } from '../rate-limit/rate-limiter.js'

export interface HandlerRuntime {
  readonly context: AuthContext
  readonly router: Router
  readonly cookieConfig: CookieConfig
  readonly rateLimiter: RateLimiter
}

/** What the framework knows about a request beyond the `Request` itself (docs/rate-limits.md#web-handlers). */
export interface HandlerOptions {
  /**
   * The address of the connection's other end (the socket's remote address).
   * Treated exactly as `toNodeHandler` treats the socket's peer: appended to
   * `x-forwarded-for` as one more hop, so with no proxy in front it is the
   * client and a header the client wrote itself cannot replace it; behind N
   * proxies, set `advanced.ipAddress.trustedProxyCount` to N + 1.
   */
  readonly ip?: string | undefined
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

export async function handleRequest(runtime: HandlerRuntime, request: Request, options?: HandlerOptions): Promise<Response> {
  // Checked at run time: frameworks that call `handler(request, env)` (Hono's mount, Deno.serve) hand over their own objects.
  const ip = typeof options?.ip === 'string' && options.ip !== '' ? options.ip : undefined
  return toWebResponse(await handleIncoming(runtime, incomingFromRequest(request, ip)))
}

export async function handleIncoming(runtime: HandlerRuntime, incoming: Incoming): Promise<Outgoing> {
  const { context: auth, router } = runtime
  const cookies = createCookieJar({
    header: incoming.headers.get('cookie'),
    config: runtime.cookieConfig,
    secrets: auth.secrets,
  })
  const responseHeaders = new HeaderMap()
  try {
    const path = routePath(incoming.pathname, auth.basePath)
    if (path === null) throw new AuthError(CoreErrors.NOT_FOUND)
    const match = router.match(incoming.method, path)
    if (match.kind === 'not-found') throw new AuthError(CoreErrors.NOT_FOUND)
    if (match.kind === 'method-not-allowed' && incoming.method === 'OPTIONS') {
      const preflight = corsPreflight(router, path, match.allow)
      if (preflight) return preflight
    }
    if (match.kind === 'method-not-allowed') {
      throw new AuthError(CoreErrors.METHOD_NOT_ALLOWED, { headers: { allow: match.allow.join(', ') } })
    }
    const { route, params } = match
    const metadata = route.endpoint.metadata ?? {}
    // Set before any check, so a refusal (429, 400) is readable cross-origin too.
    if (metadata.cors) for (const [name, value] of CORS_HEADERS) responseHeaders.set(name, value)

    if (!metadata.skipOriginCheck && !metadata.cors) checkOrigin(auth, incoming, runtime.cookieConfig.cookie(LINK_BINDING_COOKIE).name)

    const ipOptions = auth.options.advanced?.ipAddress
    const lookup = lookupClientIp(incoming.headers, {
      headers: ipOptions?.ipAddressHeaders,
      disabled: ipOptions?.disableIpTracking,
      trustedProxyCount: ipOptions?.trustedProxyCount,
      trusted: headersTrusted(ipOptions, incoming.peerAddress !== undefined),
    })
    const ip = lookup.kind === 'found' ? lookup.ip : null
    if (!metadata.skipRateLimit && auth.options.rateLimit?.enabled !== false) {
      const key = rateLimitKey(lookup, incoming.peerAddress)
      // Not when the operator turned tracking off: nothing is missing then.
      if (lookup.kind !== 'found' && lookup.kind !== 'disabled') warnNoClientIp(runtime, lookup.kind, key !== null)
      // A null key (no address at all) still goes to the limiter: credential paths count it under one shared key.
      const verdict = lookup.kind === 'disabled' ? ({ allowed: true } as const) : await runtime.rateLimiter.check({ path, ip: key })
      if (!verdict.allowed && verdict.unavailable) {
        // The counter store is down and this path fails closed (docs/rate-limits.md#when-the-store-is-down).
        throw new AuthError(CoreErrors.SERVICE_UNAVAILABLE, { headers: { 'Retry-After': String(verdict.retryAfterSeconds) } })
      }
      if (!verdict.allowed) {
        throw new AuthError(CoreErrors.TOO_MANY_REQUESTS, {
          headers: { 'x-retry-after': String(verdict.retryAfterSeconds) },
        })
      }
    }

    const maxBytes = metadata.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    const text = safeMethods.has(incoming.method) ? '' : await incoming.text(maxBytes)
    const body = metadata.rawBody ? text : parseBody(text, incoming.headers.get('content-type'))

    const returned = await executeEndpoint(auth, {
      route,
      method: incoming.method as Method,
      params,
      body,
      query: incoming.query === '' ? {} : queryObject(new URLSearchParams(incoming.query)),
      headers: incoming.headers,
      request: incoming.request,
      isServerCall: false,
      ip,
      cookies,
      responseHeaders,
    })
    return toOutgoing(returned, cookies.outgoing, responseHeaders)
  } catch (error) {
    return errorOutgoing(error, cookies.outgoing, responseHeaders, auth)
  }
}

/**
 * Endpoints with `metadata.cors` read no cookie, so any origin may call them
 * without credentials (docs/endpoints.md#cross-origin-calls). WWW-Authenticate
 * is exposed for bearer challenges, Retry-After for the 503 of a transient
 * fault (docs/core.md#transient-faults), X-Retry-After for the rate limit.
 */
const CORS_HEADERS = [
  ['access-control-allow-origin', '*'],
  ['access-control-expose-headers', 'WWW-Authenticate, Retry-After, X-Retry-After'],
] as const

/** Seconds a browser may keep a preflight answer. */
const PREFLIGHT_MAX_AGE = '600'

/** The 204 answer to a preflight for a path with `cors` endpoints, or null when it has none. */
function corsPreflight(router: Router, path: string, allow: readonly Method[]): Outgoing | null {
  const methods = allow.filter((method) => {
    const match = router.match(method, path)
    return match.kind === 'found' && match.route.endpoint.metadata?.cors === true
  })
  if (methods.length === 0) return null
  return {
    status: 204,
    headers: [
      ...CORS_HEADERS,
      ['access-control-allow-methods', methods.join(', ')],
      // Bearer tokens, Basic client credentials and JSON bodies; cookies are never allowed (no credentials).
      ['access-control-allow-headers', 'Authorization, Content-Type'],
      ['access-control-max-age', PREFLIGHT_MAX_AGE],
    ],
    body: null,
  }
}

/**
 * The key a request is counted under, or null when no client address can be
 * derived. A request whose headers name no usable client (garbage, fewer
 * entries than `trustedProxyCount`, or no configured header at all) counts
 * under the connection's address when the server glue knows it. Without that,
 * a header that was sent but is unusable still counts, under one key shared by
 * all such requests: a client could write one just to skip the limit, and a
 * fresh garbage value must not buy a fresh budget. With no header at all the
 * limiter decides by path (null): credential paths share one budget too, or a
 * password guesser would only need to omit the header; other paths go through
 * uncounted. A header nothing vouches for (`untrusted`: a bare
 * `auth.handler(request)` with no proxy setting configured) is treated as no
 * header: the client wrote it, and believing it would let every request pick
 * a fresh budget. The operator is warned once, with the fix
 * (docs/rate-limits.md#defaults).
 */
function rateLimitKey(lookup: ClientIpLookup, peerAddress: string | undefined): string | null {
  if (lookup.kind === 'found') return rateLimitKeyForIp(lookup.ip)
  // Turned off by the operator: the address is not to be tracked at all.
  if (lookup.kind === 'disabled') return null
  const peer = peerAddress === undefined ? null : parseIp(peerAddress)
  if (peer !== null) return rateLimitKeyForIp(peer.normalized)
  return lookup.kind === 'unusable' ? UNIDENTIFIED_CLIENT_KEY : null
}

/**
 * Told once per auth object and cause: the deployment's proxy header is
 * missing, does not match `trustedProxyCount`, or is not trusted; each
 * message names the fix (docs/rate-limits.md#web-handlers).
 */
function warnNoClientIp(runtime: HandlerRuntime, kind: 'absent' | 'unusable' | 'untrusted', counted: boolean): void {
  // Counted under the connection or the shared key of garbage headers, or not keyed at all (shared on credential paths only).
  const cause = kind === 'untrusted' ? kind : counted ? 'unusable' : 'absent'
  let told = warned.get(runtime)
  if (!told) warned.set(runtime, (told = new Set()))
  if (told.has(cause)) return
  told.add(cause)
  runtime.context.logger.warn(NO_CLIENT_IP_WARNINGS[cause])
}
const warned = new WeakMap<HandlerRuntime, Set<string>>()

const SHARED_BUDGET = 'credential paths (sign-in, sign-up, password reset, ...) are rate limited all together, other paths not at all'
const NO_CLIENT_IP_WARNINGS = {
  unusable:
    'no valid client IP in the configured headers (advanced.ipAddress): such requests are rate limited by the connection address, or all together; check x-forwarded-for and trustedProxyCount',
  absent: `no client IP in the configured headers (advanced.ipAddress): ${SHARED_BUDGET}; pass the connection's address as auth.handler(request, { ip }), or set x-forwarded-for in your proxy and advanced.ipAddress.trustedProxyCount`,
  untrusted: `x-forwarded-for is ignored: auth.handler(request) was given no { ip } and advanced.ipAddress sets neither trustedProxyCount nor ipAddressHeaders, so the client may have written the header itself; ${SHARED_BUDGET}. Pass the connection's address as auth.handler(request, { ip }), or, behind a proxy that appends to the header, set advanced.ipAddress.trustedProxyCount`,
} as const

/** The path below the base path, or null when the request is not for us. */
function routePath(pathname: string, basePath: string): string | null {
  if (!pathname.startsWith(`${basePath}/`)) return null
  return pathname.slice(basePath.length)
}

/**
 * Every state-changing request must not come from an untrusted origin,
 * whether or not it carries cookies (docs/security.md#login-csrf). A request
 * without cookies is not harmless: a cross-site form POST to
 * `/sign-in/email` carries no cookie (SameSite=Lax), and the answer's
 * Set-Cookie would sign the victim's browser into the attacker's account.
 *
 * - A present `Origin` decides: it must be trusted, and `null` (sandboxed
 *   frames, privacy redirects) is refused.
 * - Without it, `Sec-Fetch-Site: cross-site` is refused (a browser that
 *   strips Origin still says the request crossed sites), and a `Referer`,
 *   when sent, must be trusted.
 * - With neither Origin nor Referer, a cookie-bearing request is refused:
 *   it cannot prove where it came from. One with no cookie either is a
 *   server-to-server call (curl, a backend): a browser always sends Origin
 *   on a cross-site POST, so it passes. The link binding cookie alone
 *   (session/link-binding.ts) does not count: it signs nobody in and
 *   authorizes nothing, and a client's cookie jar keeps it after a sign-up
 *   that opened no session.
 *
 * `cors` and `skipOriginCheck` endpoints never get here: they are meant to be
 * called from other origins (bearer tokens, webhooks, the `form_post` callback).
 */
function checkOrigin(auth: AuthContext, incoming: Incoming, linkBindingCookie: string): void {
  if (safeMethods.has(incoming.method)) return
  if (auth.options.advanced?.disableOriginCheck) return
  const { headers } = incoming
  const origin = headers.get('origin')
  if (origin !== null) return requireTrusted(auth, origin)
  if (headers.get('sec-fetch-site')?.trim().toLowerCase() === 'cross-site') throw new AuthError(CoreErrors.MISSING_ORIGIN)
  // An empty Referer says as little as none (Referrer-Policy: no-referrer sends none at all).
  const referer = headers.get('referer')
  if (referer) return requireTrusted(auth, refererOrigin(referer))
  const cookies = parseCookieHeader(headers.get('cookie'))
  const inert = (name: string) => name === linkBindingCookie || auth.plugins.some((plugin) => plugin.inertCookies?.includes(name) === true)
  if ([...cookies.keys()].some((name) => !inert(name))) throw new AuthError(CoreErrors.MISSING_ORIGIN)
}

/** An opaque (`null`), empty or unparsable origin proves nothing: refused like a missing one. */
function requireTrusted(auth: AuthContext, origin: string | null): void {
  if (!origin || origin === 'null') throw new AuthError(CoreErrors.MISSING_ORIGIN)
  if (!auth.isTrustedOrigin(origin)) throw refusedOrigin(auth, origin)
}

/** Long enough for any real origin; a client-written header is not copied into logs at any length. */
const MAX_LOGGED_ORIGIN = 200

/**
 * The refusal says what to fix (docs/security.md#when-the-origin-is-refused): a dev server
 * on another port, or the page opened at 127.0.0.1 instead of localhost, is
 * the usual cause. Every mode logs one warning naming the refused origin and
 * the trusted ones; outside production the 403 body names them too, beside
 * the fixed message. In production the body stays bare: the list of trusted
 * origins is the deployment's business, not a caller's.
 */
function refusedOrigin(auth: AuthContext, origin: string): AuthError {
  const refused = origin.slice(0, MAX_LOGGED_ORIGIN)
  const trustedOrigins = [auth.origin, ...(auth.options.trustedOrigins ?? [])]
  auth.logger.warn(`refused origin ${refused}: trusted are ${trustedOrigins.join(', ')} (baseURL and trustedOrigins)`, {
    origin: refused,
    trustedOrigins,
  })
  return new AuthError(CoreErrors.INVALID_ORIGIN, auth.production ? {} : { details: { origin: refused, trustedOrigins } })
}

function refererOrigin(referer: string): string | null {
  try {
    return new URL(referer).origin
  } catch {
    return null
  }
}
