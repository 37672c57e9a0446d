/**
 * @module
 * The web-standard entry point: `handler(Request): Promise<Response>`.
 * Order of checks (docs/endpoints.md#what-happens-to-a-request): route
 * (404/405; an OPTIONS preflight for a `cors` endpoint is answered here),
 * origin (a POST carrying cookies must come from a trusted origin), rate
 * limit (429), body, then the shared call path of execute.ts.
 */
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import { lookupClientIp, parseIp, rateLimitKeyForIp, type ClientIpLookup } from '../security/ip.js'
import type { AuthContext } from './context.js'
import { createCookieJar } from './cookie-jar.js'
import type { CookieConfig } from '../cookies/cookies.js'
import type { Method } from './define-endpoint.js'
import { executeEndpoint } from './execute.js'
import { HeaderMap } from './header-map.js'
import { incomingFromRequest, type Incoming } from './incoming.js'
import { DEFAULT_MAX_BODY_BYTES, parseBody, queryObject } from './request-body.js'
import { errorOutgoing, toOutgoing, toWebResponse, type Outgoing } from './respond.js'
import type { Router } from './router.js'
import type { RateLimiter } from '../rate-limit/rate-limiter.js'

export interface HandlerRuntime {
  readonly context: AuthContext
  readonly router: Router
  readonly cookieConfig: CookieConfig
  readonly rateLimiter: RateLimiter
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

export async function handleRequest(runtime: HandlerRuntime, request: Request): Promise<Response> {
  return toWebResponse(await handleIncoming(runtime, incomingFromRequest(request)))
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

    if (!metadata.skipOriginCheck) checkOrigin(auth, incoming)

    const ipOptions = auth.options.advanced?.ipAddress
    const lookup = lookupClientIp(incoming.headers, {
      headers: ipOptions?.ipAddressHeaders,
      disabled: ipOptions?.disableIpTracking,
      trustedProxyCount: ipOptions?.trustedProxyCount,
    })
    const ip = lookup.kind === 'found' ? lookup.ip : null
    if (!metadata.skipRateLimit && auth.options.rateLimit?.enabled !== false) {
      const key = rateLimitKey(lookup, incoming.peerAddress)
      if (lookup.kind !== 'found') warnNoClientIp(runtime, key !== null)
      const verdict = key === null ? ({ allowed: true } as const) : await runtime.rateLimiter.check({ path, ip: key })
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
    return errorOutgoing(error, cookies.outgoing, responseHeaders, auth.logger)
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

/** Counts every request whose headers name no usable client and whose peer is unknown: they share one budget. */
const UNIDENTIFIED_CLIENT_KEY = 'unidentified'

/**
 * The key a request is counted under, or null to let it through uncounted.
 * A request whose headers name no usable client (garbage, fewer entries than
 * `trustedProxyCount`, or no configured header at all) counts under the
 * connection's address when the server glue knows it. Without that, a header
 * that was sent but is unusable still counts, under one key shared by all
 * such requests: a client could write one just to skip the limit, and a fresh
 * garbage value must not buy a fresh budget. With no header at all there is
 * no fair key, since one shared bucket would let a single client lock
 * everyone out of sign-in: the request goes through and the operator is
 * warned, as the deployment is missing its proxy header (docs/rate-limits.md).
 */
function rateLimitKey(lookup: ClientIpLookup, peerAddress: string | undefined): string | null {
  if (lookup.kind === 'found') return rateLimitKeyForIp(lookup.ip)
  // Turned off by the operator: the address is not to be tracked at all.
  if (lookup.kind === 'disabled') return null
  const peer = peerAddress === undefined ? null : parseIp(peerAddress)
  if (peer !== null) return rateLimitKeyForIp(peer.normalized)
  return lookup.kind === 'unusable' ? UNIDENTIFIED_CLIENT_KEY : null
}

/** Told once per auth object: the deployment's proxy header is missing or does not match `trustedProxyCount`. */
function warnNoClientIp(runtime: HandlerRuntime, counted: boolean): void {
  if (warned.has(runtime)) return
  warned.add(runtime)
  runtime.context.logger.warn(
    counted
      ? 'no valid client IP in the configured headers (advanced.ipAddress): such requests are rate limited by the connection address, or all together; check x-forwarded-for and trustedProxyCount'
      : 'rate limiting skipped: no valid client IP in the configured headers (advanced.ipAddress); set x-forwarded-for in your proxy or server adapter',
  )
}
const warned = new WeakSet<HandlerRuntime>()

/** The path below the base path, or null when the request is not for us. */
function routePath(pathname: string, basePath: string): string | null {
  if (!pathname.startsWith(`${basePath}/`)) return null
  return pathname.slice(basePath.length)
}

/**
 * The origin is checked on POST when a cookie is sent. A browser
 * always sends Origin on a cross-site POST; Referer is the fallback for the
 * few that strip it. No Origin and no Referer on a cookie-bearing write is
 * refused: the request cannot prove where it came from.
 */
function checkOrigin(auth: AuthContext, incoming: Incoming): void {
  if (safeMethods.has(incoming.method)) return
  if (!incoming.headers.has('cookie')) return
  if (auth.options.advanced?.disableOriginCheck) return
  const origin = incoming.headers.get('origin') ?? refererOrigin(incoming.headers.get('referer'))
  if (!origin || origin === 'null') throw new AuthError(CoreErrors.MISSING_ORIGIN)
  if (!auth.isTrustedOrigin(origin)) throw new AuthError(CoreErrors.INVALID_ORIGIN)
}

function refererOrigin(referer: string | null): string | null {
  if (!referer) return null
  try {
    return new URL(referer).origin
  } catch {
    return null
  }
}
