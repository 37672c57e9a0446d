/**
 * @module
 * The state of an OpenID Connect sign-in (docs/sso.md#openid-connect): 32
 * random characters naming a row of core's verification table for 10
 * minutes, identifier `sso-state:` + SHA-256 of the state, so the table holds
 * nothing a browser could present and no other purpose's token (a reset
 * link, a social sign-in's state) is ever found under this prefix. The row
 * holds everything the callback needs (provider, where to land, the PKCE
 * verifier, the nonce): the callback reads nothing of that from its query.
 *
 * The state is bound to the browser that started the flow by a signed
 * `sso_state` cookie: a callback whose state is not the cookie's is refused
 * before the row is touched, so an attacker cannot make a victim's browser
 * finish the attacker's sign-in (login CSRF, RFC 6749 §10.12). The row is
 * consumed atomically: one state signs in once, however many callbacks race.
 *
 * Core's social state (core/src/social/state.ts) does the same for social
 * providers; its row shape is theirs (linking, scopes), so this small module
 * keeps its own shape on the same primitives rather than widening core's.
 */
import { constantTimeEqual, sha256Base64url, type EndpointContext, type Row } from '@gatehouse/core'
import type { SsoLanding } from '../types.js'

export const STATE_LENGTH = 32
/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const CODE_VERIFIER_LENGTH = 64
export const NONCE_LENGTH = 32
export const STATE_TTL_MS = 600_000
const PREFIX = 'sso-state:'
export const STATE_COOKIE = 'sso_state'

export interface SsoStateData {
  readonly providerId: string
  /** The provider's configuration when the flow started (oidc/flow.ts `providerVersion`): a change mid-flow ends it. */
  readonly providerVersion: string
  readonly landing: SsoLanding
  readonly codeVerifier: string
  readonly nonce: string
  /** Epoch milliseconds. */
  readonly expiresAt: number
}

type Ctx = Pick<EndpointContext, 'db' | 'clock' | 'random' | 'cookies'>

function identifier(state: string): string {
  return `${PREFIX}${sha256Base64url(state)}`
}

/**
 * Stores a new state, with a fresh PKCE verifier and nonce, and binds it to this browser.
 *
 * @example
 * const { state, data } = await createSsoState(ctx, { providerId: 'acme', providerVersion, landing })
 */
export async function createSsoState(
  ctx: Ctx,
  start: Pick<SsoStateData, 'providerId' | 'providerVersion' | 'landing'>,
): Promise<{ state: string; data: SsoStateData }> {
  const state = ctx.random.string(STATE_LENGTH)
  const data: SsoStateData = {
    ...start,
    codeVerifier: ctx.random.string(CODE_VERIFIER_LENGTH),
    nonce: ctx.random.string(NONCE_LENGTH),
    expiresAt: ctx.clock.now().getTime() + STATE_TTL_MS,
  }
  await ctx.db.create({
    model: 'verification',
    data: { identifier: identifier(state), value: JSON.stringify(data), expiresAt: new Date(data.expiresAt) },
  })
  ctx.cookies.setSigned(STATE_COOKIE, state, { maxAge: STATE_TTL_MS / 1000 })
  return { state, data }
}

export type SsoStateCheck =
  | { readonly ok: true; readonly data: SsoStateData }
  /** No cookie, or the cookie names another state: nothing was consumed. */
  | { readonly ok: false; readonly reason: 'mismatch' }
  /** Unknown, or already consumed. */
  | { readonly ok: false; readonly reason: 'not_found' }
  /** Consumed, but past its 10 minutes; `data` still says where errors go. */
  | { readonly ok: false; readonly reason: 'expired'; readonly data: SsoStateData }

/**
 * Checks the browser binding, then consumes the row: of concurrent callbacks with one state, one wins.
 *
 * @example
 * const checked = await consumeSsoState(ctx, params.get('state') ?? '')
 * if (!checked.ok) return errorRedirect(ctx, 'please_restart_the_process', null)
 */
export async function consumeSsoState(ctx: Ctx, state: string): Promise<SsoStateCheck> {
  const bound = ctx.cookies.getSigned(STATE_COOKIE)
  if (bound === null || !constantTimeEqual(bound, state)) return { ok: false, reason: 'mismatch' }
  ctx.cookies.delete(STATE_COOKIE)
  const row = await ctx.db.consume<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(state) },
  })
  const data = row ? parseState(row.value) : null
  if (!row || !data) return { ok: false, reason: 'not_found' }
  const now = ctx.clock.now().getTime()
  if (row.expiresAt.getTime() <= now || data.expiresAt <= now) return { ok: false, reason: 'expired', data }
  return { ok: true, data }
}

function parseState(text: string): SsoStateData | null {
  try {
    const parsed = JSON.parse(text) as Partial<SsoStateData> | null
    if (
      !parsed ||
      typeof parsed.providerId !== 'string' ||
      typeof parsed.providerVersion !== 'string' ||
      typeof parsed.codeVerifier !== 'string' ||
      typeof parsed.nonce !== 'string' ||
      typeof parsed.expiresAt !== 'number' ||
      typeof parsed.landing?.callbackURL !== 'string'
    ) {
      return null
    }
    return parsed as SsoStateData
  } catch {
    return null
  }
}
