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
 */
import { constantTimeEqual, type Clock, type Random, type Row, type Store } from '@gatehouse/core'
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
  input: { clientId: string; userId: string; scopes: readonly string[]; grantId: string; authTime: Date | null },
): Promise<{ accessToken: string; refreshToken: string | undefined }> {
  const now = ctx.clock.now().getTime()
  const accessToken = generateOpaqueToken(ctx.random)
  // A refresh token only for offline_access (OpenID Connect Core §11).
  const refreshToken = input.scopes.includes('offline_access') ? generateOpaqueToken(ctx.random) : undefined
  await db.create({
    model: 'oauthAccessToken',
    data: {
      accessToken: await digest(accessToken),
      refreshToken: refreshToken === undefined ? null : await digest(refreshToken),
      accessTokenExpiresAt: new Date(now + options.accessTokenExpiresIn * 1000),
      refreshTokenExpiresAt: refreshToken === undefined ? null : new Date(now + options.refreshTokenExpiresIn * 1000),
      clientId: input.clientId,
      userId: input.userId,
      scopes: input.scopes.join(' '),
      grantId: input.grantId,
      rotatedAt: null,
      authTime: input.authTime,
    },
  })
  return { accessToken, refreshToken }
}

/** Revokes every token of one authorization. */
export function revokeGrant(db: Store, grantId: string): Promise<number> {
  return db.deleteMany({ model: 'oauthAccessToken', where: { field: 'grantId', value: grantId } })
}

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/

/** RFC 7636 §4.6. */
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
    const authTime = new Date(grant.authTime)
    const written = await writeTokens(ctx, tx, options, { clientId: client.clientId, userId: grant.userId, scopes: grant.scopes, grantId, authTime })
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
  return ctx.db.transaction(async (tx): Promise<TokenOutcome> => {
    const row = await tx.lock<TokenRow>({ model: 'oauthAccessToken', where: { field: 'refreshToken', value: hash } })
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
    const written = await writeTokens(ctx, tx, options, {
      clientId: client.clientId,
      userId: row.userId,
      scopes: requested,
      grantId: row.grantId,
      authTime: row.authTime,
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
