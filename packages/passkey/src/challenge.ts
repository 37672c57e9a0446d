/**
 * @module
 * WebAuthn challenges (docs/passkeys.md#challenges). Each options request
 * draws 32 bytes from the CSPRNG (W3C WebAuthn §13.4.3 asks for at least 16)
 * and starts an attempt: a 32-character attempt id goes to the browser in a
 * signed cookie, and a verification row keyed by the id's SHA-256 holds the
 * purpose (register or authenticate), the user for a registration, and the
 * challenge's SHA-256, never the challenge itself. So a database dump holds
 * nothing a browser could answer with, a challenge only counts in the
 * browser that asked for it, and a register challenge cannot serve a
 * sign-in. Verification consumes the row with the adapter's atomic consume
 * before any check, so of parallel answers to one challenge one at most
 * succeeds, and a failed answer burns it too.
 */
import { constantTimeEqual, sha256Base64url, type EndpointContext, type Row, type Store } from '@gatehouse/core'
import { toBase64url } from './encoding.js'

export const CHALLENGE_COOKIE = 'passkey_challenge'
export const CHALLENGE_BYTES = 32
const ATTEMPT_ID_LENGTH = 32
const PREFIX = 'passkey-challenge:'

export type ChallengePurpose = 'register' | 'authenticate'

export interface ChallengeClaims {
  readonly purpose: ChallengePurpose
  /** The signed-in user a registration is for; null for a sign-in. */
  readonly userId: string | null
  /** The user handle chosen for a registration (base64url), stored with the credential. */
  readonly userHandle: string | null
  /** SHA-256 of the base64url challenge. */
  readonly challengeHash: string
}

function identifier(attemptId: string): string {
  return `${PREFIX}${sha256Base64url(attemptId)}`
}

/**
 * A fresh challenge for `purpose`: stored hashed, its attempt bound to this browser by the signed cookie.
 *
 * @example
 * const challenge = await startChallenge(ctx, { purpose: 'authenticate', userId: null, userHandle: null }, 300)
 */
export async function startChallenge(
  ctx: EndpointContext,
  claims: Omit<ChallengeClaims, 'challengeHash'>,
  expiresInSeconds: number,
): Promise<string> {
  const challenge = toBase64url(ctx.random.bytes(CHALLENGE_BYTES))
  const attemptId = ctx.random.string(ATTEMPT_ID_LENGTH)
  const stored: ChallengeClaims = { ...claims, challengeHash: sha256Base64url(challenge) }
  await ctx.db.create({
    model: 'verification',
    data: {
      identifier: identifier(attemptId),
      value: JSON.stringify(stored),
      expiresAt: new Date(ctx.clock.now().getTime() + expiresInSeconds * 1000),
    },
  })
  ctx.cookies.setSigned(CHALLENGE_COOKIE, attemptId, { maxAge: expiresInSeconds })
  return challenge
}

export type ConsumedChallenge =
  | { readonly ok: true; readonly claims: ChallengeClaims }
  | { readonly ok: false; readonly reason: 'missing' | 'expired' | 'wrong-purpose' }

/**
 * Consumes this browser's attempt (an expired or mismatched one too, so it is gone) and clears the cookie.
 *
 * @example
 * const attempt = await consumeChallenge(ctx, ctx.db, 'authenticate')
 * if (attempt.ok) verify(..., { expectedChallenge: matchesChallenge(attempt.claims) })
 */
export async function consumeChallenge(ctx: EndpointContext, db: Store, purpose: ChallengePurpose): Promise<ConsumedChallenge> {
  const attemptId = ctx.cookies.getSigned(CHALLENGE_COOKIE)
  ctx.cookies.delete(CHALLENGE_COOKIE)
  if (!attemptId || attemptId.length !== ATTEMPT_ID_LENGTH) return { ok: false, reason: 'missing' }
  const row = await db.consume<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(attemptId) },
  })
  if (!row) return { ok: false, reason: 'missing' }
  if (row.expiresAt.getTime() <= ctx.clock.now().getTime()) return { ok: false, reason: 'expired' }
  const claims = readClaims(row.value)
  if (!claims) return { ok: false, reason: 'missing' }
  if (claims.purpose !== purpose) return { ok: false, reason: 'wrong-purpose' }
  return { ok: true, claims }
}

/** The `expectedChallenge` check: the browser's challenge hashes to the stored one (constant-time compare). */
export function matchesChallenge(claims: ChallengeClaims): (challenge: string) => boolean {
  return (challenge) => constantTimeEqual(sha256Base64url(challenge), claims.challengeHash)
}

function readClaims(value: string): ChallengeClaims | null {
  try {
    const parsed = JSON.parse(value) as Partial<Record<keyof ChallengeClaims, unknown>>
    if (parsed.purpose !== 'register' && parsed.purpose !== 'authenticate') return null
    if (typeof parsed.challengeHash !== 'string') return null
    return {
      purpose: parsed.purpose,
      userId: typeof parsed.userId === 'string' ? parsed.userId : null,
      userHandle: typeof parsed.userHandle === 'string' ? parsed.userHandle : null,
      challengeHash: parsed.challengeHash,
    }
  } catch {
    return null
  }
}
