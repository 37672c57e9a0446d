/**
 * @module
 * Access and refresh tokens (docs/oidc-provider.md#tokens): opaque, random,
 * stored as digests in `oauthAccessToken`, one row per issued pair. Rows of
 * one authorization share a `grantId`, so a whole family can be revoked:
 *
 * - Code redemption consumes the code and writes the tokens in one
 *   transaction. A redemption that finds no code is a replay (RFC 6749
 *   §4.1.2: the server should revoke what the code produced) and revokes the
 *   family; parallel redemptions wait for the winner's commit, so they see
 *   its tokens and revoke them deterministically.
 * - A refresh locks the row of the presented token, marks it rotated and
 *   writes a new pair. Presenting a rotated token again is reuse (RFC 9700
 *   §4.14.2) and revokes the family, except within
 *   `refreshTokenReuseInterval` (off by default) of its rotation, by the same client,
 *   while no later token of the family was rotated: then it gets another pair
 *   of the family (parallel refreshes from two tabs, a retry after a
 *   timeout). Tokens are stored as digests, so the pair the first use got
 *   cannot be answered again; a second pair is the price of the grace.
 *   Parallel refreshes queue on the lock.
 * - A refresh gets at most the scopes the client may still ask for: an
 *   operator who narrows a client's `scope` narrows its families at their
 *   next refresh (a `scope` parameter naming a withdrawn scope is
 *   `invalid_scope`).
 * - Refresh tokens go only to clients registered for the refresh_token
 *   grant, with offline_access, and a family's refresh tokens end
 *   `refreshTokenMaxAge` after the user authorized it, however often it rotates.
 * - Both grants lock the user's row first, as the revocation of the user's
 *   credentials does (end-grants.ts): a grant and a revocation never
 *   interleave, so tokens issued while a password reset runs are either
 *   seen and deleted by it, or refused because it committed first. A code
 *   is also redeemable only while the session that authorized it lives, and
 *   only if the user did not end the client's grant since it was issued
 *   (connected apps, consents.ts).
 */
import { constantTimeEqual, type Clock, type Random, type Row, type Session, type Store } from '@gatehouse/core'
import type { OAuthClient, ResolvedOidcOptions } from '../options.js'
import { consumeCode, type Grant } from './codes.js'
import { revokedSince } from './consents.js'
import { base64url, digest, generateOpaqueToken } from './secrets.js'

export interface TokenRow extends Row {
  id: string
  accessToken: string
  refreshToken: string | null
  accessTokenExpiresAt: Date
  refreshTokenExpiresAt: Date | null
  clientId: string
  userId: string
  scopes: string
  grantId: string
  rotatedAt: Date | null
  authTime: Date | null
  grantedAt: Date | null
  amr: string | null
  acr: string | null
  createdAt: Date
}

export interface IssuedTokens {
  readonly accessToken: string
  readonly refreshToken: string | undefined
  readonly scopes: readonly string[]
  readonly userId: string
  readonly authTime: Date | null
  readonly nonce: string | undefined
  readonly expiresIn: number
  /** How the user signed in for the grant (RFC 8176), for the ID Token; empty when unknown. */
  readonly amr: readonly string[]
  readonly acr: string | undefined
}

interface Ctx {
  readonly db: Store
  readonly clock: Clock
  readonly random: Random
}

async function writeTokens(
  ctx: Ctx,
  db: Store,
  options: ResolvedOidcOptions,
  client: OAuthClient,
  input: {
    userId: string
    scopes: readonly string[]
    grantId: string
    authTime: Date | null
    grantedAt: Date
    amr: readonly string[]
    acr: string | undefined
  },
): Promise<{ accessToken: string; refreshToken: string | undefined }> {
  const now = ctx.clock.now().getTime()
  const accessToken = generateOpaqueToken(ctx.random)
  // A refresh token only for offline_access (OpenID Connect Core §11), to a client registered for the grant.
  const offline = input.scopes.includes('offline_access') && client.grantTypes.includes('refresh_token')
  const refreshToken = offline ? generateOpaqueToken(ctx.random) : undefined
  // Sliding by refreshTokenExpiresIn, never past the grant's absolute end.
  const refreshEnd = Math.min(now + options.refreshTokenExpiresIn * 1000, input.grantedAt.getTime() + options.refreshTokenMaxAge * 1000)
  await db.create({
    model: 'oauthAccessToken',
    data: {
      accessToken: await digest(accessToken),
      refreshToken: refreshToken === undefined ? null : await digest(refreshToken),
      accessTokenExpiresAt: new Date(now + options.accessTokenExpiresIn * 1000),
      refreshTokenExpiresAt: refreshToken === undefined ? null : new Date(refreshEnd),
      clientId: client.clientId,
      userId: input.userId,
      scopes: input.scopes.join(' '),
      grantId: input.grantId,
      rotatedAt: null,
      authTime: input.authTime,
      grantedAt: input.grantedAt,
      amr: input.amr.length > 0 ? input.amr.join(' ') : null,
      acr: input.acr ?? null,
    },
  })
  return { accessToken, refreshToken }
}

/**
 * Locks the user's row for the rest of the transaction: every grant and the
 * revocation of the user's credentials take this lock first, so they never
 * interleave. False when the user is gone.
 */
export async function lockUser(db: Store, userId: string): Promise<boolean> {
  return (await db.lock({ model: 'user', where: { field: 'id', value: userId } })) !== null
}

/** Whether the session with this stored token hash still lives (locked, so a revocation waits for this transaction). */
async function sessionLives(db: Store, clock: Clock, sessionToken: string, userId: string): Promise<boolean> {
  const session = await db.lock<Session & Row>({ model: 'session', where: { field: 'token', value: sessionToken } })
  return session !== null && session.userId === userId && session.expiresAt.getTime() > clock.now().getTime()
}

/** Revokes every token of one authorization. */
export function revokeGrant(db: Store, grantId: string): Promise<number> {
  return db.deleteMany({ model: 'oauthAccessToken', where: { field: 'grantId', value: grantId } })
}

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/

/**
 * RFC 7636 §4.6. A code issued with a challenge needs its verifier, and a
 * verifier for a code issued without one is refused (RFC 9700 §4.8.2, PKCE
 * downgrade): otherwise a code injected from a request stripped of its
 * challenge would pass with whatever verifier the honest client sends.
 */
async function verifierMatches(grant: Grant, verifier: string | undefined): Promise<boolean> {
  if (grant.codeChallenge === undefined) return verifier === undefined
  if (verifier === undefined || !CODE_VERIFIER.test(verifier)) return false
  if (grant.codeChallengeMethod === 'plain') return constantTimeEqual(verifier, grant.codeChallenge)
  const hashed = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))))
  return constantTimeEqual(hashed, grant.codeChallenge)
}

export type TokenOutcome =
  | { readonly ok: true; readonly tokens: IssuedTokens }
  | { readonly ok: false; readonly error: 'invalid_grant' | 'invalid_scope'; readonly description: string }

const invalidGrant = (description: string) => ({ ok: false, error: 'invalid_grant', description }) as const

/**
 * The authorization_code grant (RFC 6749 §4.1.3): one winner per code,
 * bound to its client and redirect URI, checked against the PKCE challenge.
 * A failed check still burns the code: the transaction commits the consume.
 */
export async function exchangeCode(
  ctx: Ctx,
  options: ResolvedOidcOptions,
  client: OAuthClient,
  input: { code: string; redirectURI: string | undefined; codeVerifier: string | undefined },
): Promise<TokenOutcome> {
  const grantId = await digest(input.code)
  const outcome = await ctx.db.transaction(async (tx): Promise<TokenOutcome | { ok: false; replay: true }> => {
    const consumed = await consumeCode(ctx, 'code', input.code, tx)
    if (!consumed.ok) return consumed.reason === 'unknown' ? { ok: false, replay: true } : invalidGrant('The code has expired')
    const { grant } = consumed
    if (grant.clientId !== client.clientId) return invalidGrant('The code was issued to another client')
    if (grant.redirectURI !== input.redirectURI) return invalidGrant('redirect_uri does not match the authorization request')
    if (!(await verifierMatches(grant, input.codeVerifier))) return invalidGrant('code_verifier does not match the code challenge')
    // The session first, then the user: the order a revocation takes them in (sessions, then its hooks).
    if (grant.sessionToken !== undefined && !(await sessionLives(tx, ctx.clock, grant.sessionToken, grant.userId))) {
      return invalidGrant('The sign-in behind the code has ended')
    }
    if (!(await lockUser(tx, grant.userId))) return invalidGrant('The user no longer exists')
    // Read under the user's lock, which a connected-app revocation takes too.
    if (await revokedSince(tx, grant.clientId, grant.userId, grant.issuedAt)) {
      return invalidGrant('The user ended this client\'s access after the code was issued')
    }
    const authTime = new Date(grant.authTime)
    const grantedAt = ctx.clock.now()
    const amr = grant.amr ?? []
    const written = await writeTokens(ctx, tx, options, client, {
      userId: grant.userId,
      scopes: grant.scopes,
      grantId,
      authTime,
      grantedAt,
      amr,
      acr: grant.acr,
    })
    return {
      ok: true,
      tokens: {
        ...written,
        scopes: grant.scopes,
        userId: grant.userId,
        authTime,
        nonce: grant.nonce,
        expiresIn: options.accessTokenExpiresIn,
        amr,
        acr: grant.acr,
      },
    }
  })
  if (outcome.ok) return outcome
  if ('replay' in outcome) {
    await revokeGrant(ctx.db, grantId)
    return invalidGrant('The code is invalid or was already used')
  }
  return outcome
}

/**
 * Whether a spent refresh token presented again is within the reuse
 * interval: rotated at most `refreshTokenReuseInterval` seconds ago, and no
 * later token of its family rotated since (the client has moved on, so this
 * copy is someone else's). The caller checked that the same client presents it.
 */
async function withinReuseInterval(db: Store, options: ResolvedOidcOptions, row: TokenRow, now: Date): Promise<boolean> {
  if (row.rotatedAt === null || options.refreshTokenReuseInterval <= 0) return false
  if (now.getTime() - row.rotatedAt.getTime() > options.refreshTokenReuseInterval * 1000) return false
  const family = await db.findMany<TokenRow>({ model: 'oauthAccessToken', where: { field: 'grantId', value: row.grantId } })
  const rotatedAt = row.rotatedAt.getTime()
  return !family.some((other) => other.id !== row.id && other.rotatedAt !== null && other.rotatedAt.getTime() > rotatedAt)
}

/**
 * The refresh_token grant (RFC 6749 §6) with rotation: the presented token
 * is spent, a new pair is issued, and a spent token presented again revokes
 * its family (within the reuse interval, it gets another pair instead).
 * `scope` may narrow the grant, never widen it, and the grant narrows itself
 * to what the client may still ask for.
 */
export async function refreshTokens(
  ctx: Ctx,
  options: ResolvedOidcOptions,
  client: OAuthClient,
  input: { refreshToken: string; scope: string | undefined },
): Promise<TokenOutcome> {
  const hash = await digest(input.refreshToken)
  const where = { field: 'refreshToken', value: hash }
  return ctx.db.transaction(async (tx): Promise<TokenOutcome> => {
    // The user first, as a revocation of the user's credentials takes it, then the token's row.
    const seen = await tx.findOne<TokenRow>({ model: 'oauthAccessToken', where })
    if (!seen || seen.clientId !== client.clientId) return invalidGrant('The refresh token is invalid')
    if (!(await lockUser(tx, seen.userId))) return invalidGrant('The refresh token is invalid')
    const row = await tx.lock<TokenRow>({ model: 'oauthAccessToken', where })
    if (!row || row.clientId !== client.clientId) return invalidGrant('The refresh token is invalid')
    const now = ctx.clock.now()
    if (row.rotatedAt !== null && !(await withinReuseInterval(tx, options, row, now))) {
      await revokeGrant(tx, row.grantId)
      return invalidGrant('The refresh token was already used')
    }
    if (row.refreshTokenExpiresAt === null || row.refreshTokenExpiresAt.getTime() <= now.getTime()) {
      return invalidGrant('The refresh token has expired')
    }
    const granted = row.scopes.split(' ').filter(Boolean)
    const requested = input.scope === undefined ? granted : input.scope.split(' ').filter(Boolean)
    const wider = requested.find((scope) => !granted.includes(scope))
    if (wider !== undefined) return { ok: false, error: 'invalid_scope', description: `Scope not granted: ${wider}` }
    // What the client may still ask for: its registered scope (when it has one) and the provider's scopes today.
    const allowed = (scope: string) => options.scopes.includes(scope) && (client.scope === null || client.scope.split(' ').includes(scope))
    const withdrawn = input.scope === undefined ? undefined : requested.find((scope) => !allowed(scope))
    if (withdrawn !== undefined) return { ok: false, error: 'invalid_scope', description: `Scope no longer allowed for this client: ${withdrawn}` }
    const scopes = requested.filter(allowed)
    if (row.rotatedAt === null) {
      await tx.update({ model: 'oauthAccessToken', where: { field: 'id', value: row.id }, update: { rotatedAt: now } })
    }
    const amr = row.amr ? row.amr.split(' ').filter(Boolean) : []
    const acr = row.acr ?? undefined
    const written = await writeTokens(ctx, tx, options, client, {
      userId: row.userId,
      scopes,
      grantId: row.grantId,
      authTime: row.authTime,
      // Rows written before grantedAt existed: the first rotation fixes the family's start at that row's creation.
      grantedAt: row.grantedAt ?? row.createdAt,
      amr,
      acr,
    })
    return {
      ok: true,
      tokens: {
        ...written,
        scopes,
        userId: row.userId,
        authTime: row.authTime,
        nonce: undefined,
        expiresIn: options.accessTokenExpiresIn,
        amr,
        acr,
      },
    }
  })
}

/** The unexpired row of an access token, or null. */
export async function findAccessToken(ctx: Pick<Ctx, 'db' | 'clock'>, token: string): Promise<TokenRow | null> {
  const row = await ctx.db.findOne<TokenRow>({ model: 'oauthAccessToken', where: { field: 'accessToken', value: await digest(token) } })
  if (!row || row.accessTokenExpiresAt.getTime() <= ctx.clock.now().getTime()) return null
  return row
}
