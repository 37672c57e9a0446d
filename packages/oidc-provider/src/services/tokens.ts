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
 *   §4.14.2) and revokes the family; parallel refreshes queue on the lock, so
 *   one gets the new pair and the others are reuse.
 * - Refresh tokens go only to clients registered for the refresh_token
 *   grant, with offline_access, and a family's refresh tokens end
 *   `refreshTokenMaxAge` after the user authorized it, however often it rotates.
 * - Both grants lock the user's row first, as the revocation of the user's
 *   credentials does (end-grants.ts): a grant and a revocation never
 *   interleave, so tokens issued while a password reset runs are either
 *   seen and deleted by it, or refused because it committed first. A code
 *   is also redeemable only while the session that authorized it lives.
 */
import { constantTimeEqual, type Clock, type Random, type Row, type Session, type Store } from '@gatehouse/core'
import type { OAuthClient, ResolvedOidcOptions } from '../options.js'
import { consumeCode, type Grant } from './codes.js'
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
  input: { userId: string; scopes: readonly string[]; grantId: string; authTime: Date | null; grantedAt: Date },
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
    const authTime = new Date(grant.authTime)
    const grantedAt = ctx.clock.now()
    const written = await writeTokens(ctx, tx, options, client, { userId: grant.userId, scopes: grant.scopes, grantId, authTime, grantedAt })
    return {
      ok: true,
      tokens: { ...written, scopes: grant.scopes, userId: grant.userId, authTime, nonce: grant.nonce, expiresIn: options.accessTokenExpiresIn },
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
 * The refresh_token grant (RFC 6749 §6) with rotation: the presented token
 * is spent, a new pair is issued, and a spent token presented again revokes
 * its family. `scope` may narrow the grant, never widen it.
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
    if (row.rotatedAt !== null) {
      await revokeGrant(tx, row.grantId)
      return invalidGrant('The refresh token was already used')
    }
    const now = ctx.clock.now()
    if (row.refreshTokenExpiresAt === null || row.refreshTokenExpiresAt.getTime() <= now.getTime()) {
      return invalidGrant('The refresh token has expired')
    }
    const granted = row.scopes.split(' ').filter(Boolean)
    const requested = input.scope === undefined ? granted : input.scope.split(' ').filter(Boolean)
    const wider = requested.find((scope) => !granted.includes(scope))
    if (wider !== undefined) return { ok: false, error: 'invalid_scope', description: `Scope not granted: ${wider}` }
    await tx.update({ model: 'oauthAccessToken', where: { field: 'id', value: row.id }, update: { rotatedAt: now } })
    const written = await writeTokens(ctx, tx, options, client, {
      userId: row.userId,
      scopes: requested,
      grantId: row.grantId,
      authTime: row.authTime,
      // Rows written before grantedAt existed: the first rotation fixes the family's start at that row's creation.
      grantedAt: row.grantedAt ?? row.createdAt,
    })
    return {
      ok: true,
      tokens: { ...written, scopes: requested, userId: row.userId, authTime: row.authTime, nonce: undefined, expiresIn: options.accessTokenExpiresIn },
    }
  })
}

/** The unexpired row of an access token, or null. */
export async function findAccessToken(ctx: Pick<Ctx, 'db' | 'clock'>, token: string): Promise<TokenRow | null> {
  const row = await ctx.db.findOne<TokenRow>({ model: 'oauthAccessToken', where: { field: 'accessToken', value: await digest(token) } })
  if (!row || row.accessTokenExpiresAt.getTime() <= ctx.clock.now().getTime()) return null
  return row
}
