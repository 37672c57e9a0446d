/**
 * @module
 * The OAuth state (docs/social.md#state): 32 random characters that name a
 * record in the verification table for 10 minutes, holding what the
 * callback needs (where to go, the PKCE verifier, the nonce, the linking
 * user). The record's identifier is `oauth-state:` and the SHA-256 of the
 * state, so the table holds nothing a browser could present, and a state is
 * never found under another purpose's prefix (a reset or delete token) nor
 * those under this one. The state is also bound to the browser that started
 * the flow by a signed `oauth_state` cookie: a callback whose state differs
 * from the cookie's is refused before the record is touched (login CSRF,
 * RFC 6749 §10.12), and the record is consumed atomically, so one state
 * signs in once.
 */
import { constantTimeEqual, sha256Base64url } from '../crypto/keys.js'
import { generateToken } from '../crypto/random.js'
import type { Row } from '../db/adapter.js'
import type { EndpointContext } from '../endpoint/context.js'

export const STATE_LENGTH = 32
/** RFC 7636 §4.1 allows 43-128 characters; letters and digits are within its unreserved set. */
export const CODE_VERIFIER_LENGTH = 128
export const STATE_TTL_MS = 600_000
const PREFIX = 'oauth-state:'
const COOKIE = 'oauth_state'

export interface OAuthStateData {
  readonly providerId: string
  readonly callbackURL: string
  readonly errorURL: string | null
  readonly newUserURL: string | null
  readonly codeVerifier: string
  /** Sent in the authorization request of an OpenID Connect flow; the ID Token must carry it. */
  readonly nonce: string | null
  /** Set by link-social: the account is linked to this user, who must still be signed in at the callback. */
  readonly link: { readonly email: string; readonly userId: string } | null
  readonly requestSignUp: boolean
  readonly scopes: readonly string[]
  /** Epoch milliseconds. */
  readonly expiresAt: number
}

type Ctx = Pick<EndpointContext, 'db' | 'clock' | 'random' | 'cookies'>

function identifier(state: string): string {
  return `${PREFIX}${sha256Base64url(state)}`
}

/**
 * Stores a new state with `data` and binds it to this browser.
 *
 * @example
 * const { state, data } = await createState(ctx, { providerId: 'github', callbackURL: '/', errorURL: null, newUserURL: null, link: null, requestSignUp: false, scopes }, { nonce: false })
 */
export async function createState(
  ctx: Ctx,
  data: Omit<OAuthStateData, 'expiresAt' | 'codeVerifier' | 'nonce'>,
  options: { nonce: boolean },
): Promise<{ state: string; data: OAuthStateData }> {
  const state = generateToken(ctx.random, STATE_LENGTH)
  const expiresAt = ctx.clock.now().getTime() + STATE_TTL_MS
  const full: OAuthStateData = {
    ...data,
    codeVerifier: generateToken(ctx.random, CODE_VERIFIER_LENGTH),
    nonce: options.nonce ? generateToken(ctx.random, 32) : null,
    expiresAt,
  }
  await ctx.db.create({
    model: 'verification',
    data: { identifier: identifier(state), value: JSON.stringify(full), expiresAt: new Date(expiresAt) },
  })
  ctx.cookies.setSigned(COOKIE, state, { maxAge: STATE_TTL_MS / 1000 })
  return { state, data: full }
}

export type StateCheck =
  | { readonly ok: true; readonly data: OAuthStateData }
  /** No cookie, or the cookie names another state: nothing was consumed. */
  | { readonly ok: false; readonly reason: 'mismatch' }
  /** Unknown or already consumed. */
  | { readonly ok: false; readonly reason: 'not_found' }
  /** Consumed, but past its 10 minutes; `data` still says where errors go. */
  | { readonly ok: false; readonly reason: 'expired'; readonly data: OAuthStateData }

/**
 * Checks the browser binding, then consumes the record: of concurrent callbacks with one state, one wins.
 *
 * @example
 * const checked = await consumeState(ctx, query.state)
 * if (!checked.ok) return errorRedirect(ctx, 'please_restart_the_process')
 */
export async function consumeState(ctx: Ctx, state: string): Promise<StateCheck> {
  const bound = ctx.cookies.getSigned(COOKIE)
  if (bound === null || !constantTimeEqual(bound, state)) return { ok: false, reason: 'mismatch' }
  ctx.cookies.delete(COOKIE)
  const row = await ctx.db.consume<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(state) },
  })
  if (!row) return { ok: false, reason: 'not_found' }
  const data = parseState(row.value)
  if (!data) return { ok: false, reason: 'not_found' }
  const now = ctx.clock.now().getTime()
  if (row.expiresAt.getTime() <= now || data.expiresAt <= now) return { ok: false, reason: 'expired', data }
  return { ok: true, data }
}

function parseState(text: string): OAuthStateData | null {
  try {
    const parsed = JSON.parse(text) as Partial<OAuthStateData> | null
    if (!parsed || typeof parsed.providerId !== 'string' || typeof parsed.codeVerifier !== 'string' || typeof parsed.callbackURL !== 'string') {
      return null
    }
    return parsed as OAuthStateData
  } catch {
    return null
  }
}
