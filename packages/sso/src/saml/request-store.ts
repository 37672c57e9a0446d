/**
 * @module
 * The AuthnRequests we sent, kept server-side (docs/sso.md#saml-sign-in):
 * a row of core's verification table for 10 minutes, named
 * `sso-saml-request:` and the SHA-256 of the request ID, holding the
 * provider it was sent to, where the sign-in lands, and the RelayState
 * handle. A response is accepted only as the answer to such a request of
 * the same provider (its `InResponseTo`), and the row is consumed
 * atomically when the response is, so one request signs in once.
 *
 * The RelayState is 32 random characters, never a URL: the IdP echoes it,
 * anyone on the way sees it, and nothing is read from it but a lookup key.
 * The same handle is set in a signed `sso_saml` cookie in the browser that
 * started, and the sign-in completes only in that browser (login CSRF,
 * routes/saml/acs-complete.ts). The ACS itself cannot see the cookie: it
 * is a cross-site POST, which carries no SameSite=Lax cookie.
 */
import { constantTimeEqual, sha256Base64url, type EndpointContext, type Row } from '@gatehouse/core'
import type { CacheProvider } from '@node-saml/node-saml'
import type { SsoLanding } from '../types.js'

export const REQUEST_TTL_MS = 600_000
/** AuthnRequests, and the LogoutRequests of SP-initiated logout (routes/saml/logout.ts), each under its own prefix. */
export type RequestKind = 'authn' | 'logout'
const PREFIXES: Record<RequestKind, string> = { authn: 'sso-saml-request:', logout: 'sso-saml-logout:' }
const BINDING_COOKIE = 'sso_saml'
/** Letters and digits from the CSPRNG: ~190 bits. */
const HANDLE_LENGTH = 32

type Ctx = Pick<EndpointContext, 'db' | 'clock' | 'random'>

export interface StoredRequest {
  readonly providerId: string
  readonly landing: SsoLanding
  readonly relayState: string
  /** Epoch milliseconds. */
  readonly createdAt: number
  readonly expiresAt: number
}

function identifier(requestId: string, kind: RequestKind): string {
  return `${PREFIXES[kind]}${sha256Base64url(requestId)}`
}

/**
 * A fresh SAML message ID: an xs:ID (it must not start with a digit) of
 * 32 random letters and digits, so it cannot be guessed.
 *
 * @example
 * const id = newMessageId(ctx) // '_Xk3…'
 */
export function newMessageId(ctx: Pick<EndpointContext, 'random'>): string {
  return `_${ctx.random.string(HANDLE_LENGTH)}`
}

/** A fresh RelayState handle. */
export function newHandle(ctx: Pick<EndpointContext, 'random'>): string {
  return ctx.random.string(HANDLE_LENGTH)
}

/**
 * Stores a request we are about to send.
 *
 * @example
 * await saveRequest(ctx, requestId, { providerId, landing, relayState })
 */
export async function saveRequest(
  ctx: Ctx,
  requestId: string,
  data: Pick<StoredRequest, 'providerId' | 'landing' | 'relayState'>,
  kind: RequestKind = 'authn',
): Promise<void> {
  const createdAt = ctx.clock.now().getTime()
  const record: StoredRequest = { ...data, createdAt, expiresAt: createdAt + REQUEST_TTL_MS }
  await ctx.db.create({
    model: 'verification',
    data: { identifier: identifier(requestId, kind), value: JSON.stringify(record), expiresAt: new Date(record.expiresAt) },
  })
}

/** The live request `requestId` of `providerId`, without consuming it; null for unknown, expired or another provider's. */
export async function peekRequest(ctx: Ctx, requestId: string, providerId: string, kind: RequestKind = 'authn'): Promise<StoredRequest | null> {
  const row = await ctx.db.findOne<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(requestId, kind) },
  })
  return row ? live(ctx, row, providerId) : null
}

/**
 * Consumes the request: of concurrent responses to one request, exactly one
 * gets it. Null when it is unknown, used, expired or another provider's
 * (a request of another provider is left alone).
 */
export async function consumeRequest(ctx: Ctx, requestId: string, providerId: string, kind: RequestKind = 'authn'): Promise<StoredRequest | null> {
  if ((await peekRequest(ctx, requestId, providerId, kind)) === null) return null
  const row = await ctx.db.consume<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(requestId, kind) },
  })
  return row ? live(ctx, row, providerId) : null
}

function live(ctx: Pick<Ctx, 'clock'>, row: { value: string; expiresAt: Date }, providerId: string): StoredRequest | null {
  const record = parse(row.value)
  if (!record || record.providerId !== providerId) return null
  const now = ctx.clock.now().getTime()
  return row.expiresAt.getTime() > now && record.expiresAt > now ? record : null
}

function parse(text: string): StoredRequest | null {
  try {
    const parsed = JSON.parse(text) as Partial<StoredRequest> | null
    if (!parsed || typeof parsed.providerId !== 'string' || typeof parsed.relayState !== 'string' || typeof parsed.landing?.callbackURL !== 'string') {
      return null
    }
    return parsed as StoredRequest
  } catch {
    return null
  }
}

/**
 * node-saml's request cache, over the rows above: it reads a request to
 * check `InResponseTo` (the response's and the bearer confirmation's), but
 * writes and deletes nothing. We store each request ourselves before
 * sending it, and consume it ourselves once the response is valid: the
 * library's removal on a failed validation would let anyone who knows a
 * pending request's ID cancel it with a garbage POST.
 *
 * @example
 * new SAML({ ...options, validateInResponseTo: ValidateInResponseTo.always, cacheProvider: requestCache(ctx, providerId) })
 */
export function requestCache(ctx: Ctx, providerId: string, kind: RequestKind = 'authn'): CacheProvider {
  return {
    saveAsync: async (_key, value) => ({ value, createdAt: ctx.clock.now().getTime() }),
    getAsync: async (key) => {
      const record = await peekRequest(ctx, key, providerId, kind)
      return record ? new Date(record.createdAt).toISOString() : null
    },
    removeAsync: async () => null,
  }
}

/** Binds the sign-in to this browser: a signed cookie holding the RelayState handle, for the request's lifetime. */
export function bindBrowser(ctx: Pick<EndpointContext, 'cookies'>, relayState: string): void {
  ctx.cookies.setSigned(BINDING_COOKIE, relayState, { maxAge: REQUEST_TTL_MS / 1000 })
}

/** Whether this browser started the sign-in of `relayState`, leaving the cookie for the steps after. */
export function isBrowserBound(ctx: Pick<EndpointContext, 'cookies'>, relayState: string): boolean {
  const bound = ctx.cookies.getSigned(BINDING_COOKIE)
  return bound !== null && constantTimeEqual(bound, relayState)
}

/** Whether this browser started the sign-in of `relayState` (its signed cookie names it). Clears the cookie. */
export function takeBrowserBinding(ctx: Pick<EndpointContext, 'cookies'>, relayState: string): boolean {
  const bound = ctx.cookies.getSigned(BINDING_COOKIE)
  if (bound !== null) ctx.cookies.delete(BINDING_COOKIE)
  return bound !== null && constantTimeEqual(bound, relayState)
}
