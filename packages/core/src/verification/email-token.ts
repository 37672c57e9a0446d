/**
 * @module
 * The email-verification token (SPEC §3, §5, §9): an HS256 JWT (jose) with
 * claims email, optional updateTo, iat and exp (default 3600 s). Its key is
 * derived from the secret for this purpose only, so no other token of the
 * system verifies here, and every secret of the rotation is tried.
 */
import { errors, jwtVerify, SignJWT } from 'jose'
import type { AuthContext } from '../endpoint/context.js'

const PURPOSE = 'email-verification-jwt'

export interface EmailTokenClaims {
  readonly email: string
  readonly updateTo?: string
}

export type EmailTokenResult =
  | { readonly ok: true; readonly claims: EmailTokenClaims }
  | { readonly ok: false; readonly reason: 'expired' | 'invalid' }

type Ctx = Pick<AuthContext, 'secrets' | 'clock'>

export async function signEmailToken(ctx: Ctx, claims: EmailTokenClaims, expiresInSeconds: number): Promise<string> {
  const now = Math.floor(ctx.clock.now().getTime() / 1000)
  const payload: Record<string, string> = { email: claims.email }
  if (claims.updateTo) payload.updateTo = claims.updateTo
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(ctx.secrets.key(PURPOSE))
}

export async function verifyEmailToken(ctx: Ctx, token: string): Promise<EmailTokenResult> {
  let expired = false
  for (const key of ctx.secrets.keys(PURPOSE)) {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: ctx.clock.now() })
      if (typeof payload.email !== 'string') return { ok: false, reason: 'invalid' }
      const claims: EmailTokenClaims =
        typeof payload.updateTo === 'string' ? { email: payload.email, updateTo: payload.updateTo } : { email: payload.email }
      return { ok: true, claims }
    } catch (error) {
      // jose checks the signature before the expiry: "expired" means a genuine token that is too old.
      if (error instanceof errors.JWTExpired) expired = true
    }
  }
  return { ok: false, reason: expired ? 'expired' : 'invalid' }
}
