/**
 * @module
 * The plugin's two signed cookies (docs/two-factor.md#trusted-devices), both signed
 * with core's per-cookie derived keys and carrying their own expiry inside
 * the signed value (a browser may keep a cookie past its Max-Age):
 *
 * - `two_factor` (pending sign-in): the user whose password was right,
 *   their remember-me choice and the user's trust version at that moment,
 *   for `pendingMaxAge` seconds (10 minutes). It is no session: it only lets
 *   that browser try a second factor, and only until the account's
 *   credentials are revoked (a reset, a ban, sign-out everywhere), which
 *   replaces the trust version (plugin.ts).
 * - `trust_device`: the user and their current trust version, for 30 days.
 *   Disabling two-factor deletes the row holding the version; a password
 *   change or reset replaces it (plugin.ts): every such cookie then fails.
 */
import { constantTimeEqual, type EndpointContext } from '@gatehouse/core'
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'

export const PENDING_COOKIE = 'two_factor'
export const TRUST_COOKIE = 'trust_device'

type Jar = Pick<EndpointContext, 'cookies' | 'clock'>

function encode(value: object): string {
  return encodeBase64urlNoPadding(new TextEncoder().encode(JSON.stringify(value)))
}

function decode(text: string | null): Record<string, unknown> | null {
  if (!text) return null
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(decodeBase64urlIgnorePadding(text)))
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null
  } catch {
    return null
  }
}

export interface PendingSignIn {
  readonly userId: string
  readonly rememberMe: boolean
  /** The user's trust version when the password was checked: the sign-in ends when it changes. */
  readonly trustVersion: string
  /**
   * The user's credential version when the password was checked (core's `credentialVersion`): a reset or
   * "sign out everywhere" since then refuses the session (docs/sessions.md#sign-ins-racing-a-revocation).
   */
  readonly credentialVersion: string | null
}

export function setPendingCookie(ctx: Jar, pending: PendingSignIn, maxAge: number): void {
  const expires = Math.floor(ctx.clock.now().getTime() / 1000) + maxAge
  ctx.cookies.setSigned(PENDING_COOKIE, encode({ u: pending.userId, r: pending.rememberMe, v: pending.trustVersion, c: pending.credentialVersion, e: expires }), { maxAge })
}

/** The pending sign-in of this browser, or null when absent, tampered with or expired. */
export function readPendingCookie(ctx: Jar): PendingSignIn | null {
  const value = decode(ctx.cookies.getSigned(PENDING_COOKIE))
  if (!value || typeof value.u !== 'string' || typeof value.v !== 'string' || typeof value.e !== 'number') return null
  if (value.e * 1000 <= ctx.clock.now().getTime()) return null
  // A cookie from before credential versions existed has none to hold: it signs in again.
  if (value.c !== null && typeof value.c !== 'string') return null
  return { userId: value.u, rememberMe: value.r !== false, trustVersion: value.v, credentialVersion: value.c }
}

export function setTrustCookie(ctx: Jar, userId: string, trustVersion: string, maxAge: number): void {
  const expires = Math.floor(ctx.clock.now().getTime() / 1000) + maxAge
  ctx.cookies.setSigned(TRUST_COOKIE, encode({ u: userId, v: trustVersion, e: expires }), { maxAge })
}

/** Whether this browser holds a live trust cookie for this user at this trust version. */
export function isTrustedDevice(ctx: Jar, userId: string, trustVersion: string): boolean {
  const value = decode(ctx.cookies.getSigned(TRUST_COOKIE))
  if (!value || typeof value.u !== 'string' || typeof value.v !== 'string' || typeof value.e !== 'number') return false
  if (value.e * 1000 <= ctx.clock.now().getTime()) return false
  return value.u === userId && constantTimeEqual(value.v, trustVersion)
}
