/**
 * @module
 * The email-verification tokens: HS256 JWTs (jose) with claims email,
 * optional updateTo, iat and exp (default 3600 s). They serve two steps that
 * must never stand in for each other, so each is signed with its own key
 * derived from the secret:
 *
 * - verification (`{ email }`): proves the mailbox; sign-up, send-verification-email
 *   and the mail to the *new* address of a change. Anyone holding the link may use it.
 * - change confirmation (`{ email, updateTo }`): the mail to the *current*
 *   address that approves moving it; verify-email applies it only for a session
 *   of the user holding `email` (docs/accounts.md#changing-the-email).
 *
 * A token verified under one key with the other step's shape is refused. No
 * other token of the system verifies here, and every secret of the rotation is tried.
 */
import { errors, jwtVerify, SignJWT } from 'jose'
import type { AuthContext } from '../endpoint/context.js'

export type EmailTokenStep = 'verification' | 'change-confirmation'

const PURPOSES: Record<EmailTokenStep, string> = {
  verification: 'email-verification-jwt',
  'change-confirmation': 'email-change-confirmation-jwt',
}

export interface VerificationClaims {
  readonly email: string
}

export interface ChangeConfirmationClaims {
  readonly email: string
  readonly updateTo: string
}

export type EmailTokenResult =
  | { readonly ok: true; readonly step: 'verification'; readonly claims: VerificationClaims }
  | { readonly ok: true; readonly step: 'change-confirmation'; readonly claims: ChangeConfirmationClaims }
  | { readonly ok: false; readonly reason: 'expired' | 'invalid' }

type Ctx = Pick<AuthContext, 'secrets' | 'clock'>

/**
 * The token of a verify-email link that proves the mailbox `email`.
 *
 * @example
 * const token = await signEmailToken(ctx, { email: user.email }, 3600)
 */
export async function signEmailToken(ctx: Ctx, claims: VerificationClaims, expiresInSeconds: number): Promise<string> {
  return sign(ctx, 'verification', { email: claims.email }, expiresInSeconds)
}

/**
 * The token of the confirmation mailed to the current address before it moves to `updateTo`.
 *
 * @example
 * const token = await signEmailChangeToken(ctx, { email: user.email, updateTo: newEmail }, 3600)
 */
export async function signEmailChangeToken(ctx: Ctx, claims: ChangeConfirmationClaims, expiresInSeconds: number): Promise<string> {
  return sign(ctx, 'change-confirmation', { email: claims.email, updateTo: claims.updateTo }, expiresInSeconds)
}

async function sign(ctx: Ctx, step: EmailTokenStep, payload: Record<string, string>, expiresInSeconds: number): Promise<string> {
  const now = Math.floor(ctx.clock.now().getTime() / 1000)
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(ctx.secrets.key(PURPOSES[step]))
}

/**
 * Which step the token belongs to, told by the key that verifies it.
 *
 * @example
 * const checked = await verifyEmailToken(ctx, token)
 * if (checked.ok && checked.step === 'change-confirmation') ...
 */
export async function verifyEmailToken(ctx: Ctx, token: string): Promise<EmailTokenResult> {
  let expired = false
  for (const step of ['verification', 'change-confirmation'] as const) {
    for (const key of ctx.secrets.keys(PURPOSES[step])) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: ctx.clock.now() })
        return read(step, payload)
      } catch (error) {
        // jose checks the signature before the expiry: "expired" means a genuine token that is too old.
        if (error instanceof errors.JWTExpired) expired = true
      }
    }
  }
  return { ok: false, reason: expired ? 'expired' : 'invalid' }
}

function read(step: EmailTokenStep, payload: Record<string, unknown>): EmailTokenResult {
  const { email, updateTo } = payload
  if (typeof email !== 'string') return { ok: false, reason: 'invalid' }
  if (step === 'verification') {
    // Only the confirmation key may carry a change: this link may be opened by anyone holding it.
    return updateTo === undefined ? { ok: true, step, claims: { email } } : { ok: false, reason: 'invalid' }
  }
  return typeof updateTo === 'string' ? { ok: true, step, claims: { email, updateTo } } : { ok: false, reason: 'invalid' }
}
