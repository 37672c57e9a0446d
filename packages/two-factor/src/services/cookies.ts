/**
 * @module
 * The plugin's two signed cookies (docs/two-factor.md#trusted-devices), both signed
 * with core's per-cookie derived keys and carrying their own expiry inside
 * the signed value (a browser may keep a cookie past its Max-Age):
 *
 * - `two_factor` (pending sign-in): the user whose first factor was right
 *   (the password, or another plugin's: services/first-factor.ts), their
 *   remember-me choice and the user's trust version at that moment, for
 *   `pendingMaxAge` seconds (10 minutes). A first factor other than the
 *   password adds its `amr` values and the session fields its plugin asked
 *   for (a few short values: the cookie stays well under the 4 KB browsers
 *   keep). It is no session: it only lets that browser try a second factor,
 *   and only until the account's credentials are revoked (a reset, a ban,
 *   sign-out everywhere), which replaces the trust version (plugin.ts).
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

/** A session field value a pending sign-in can carry: JSON, so no dates. */
export type PendingFieldValue = string | number | boolean | null

/** What the pending cookie may carry of another plugin's first factor; also checked when the cookie is read. */
export const PENDING_LIMITS = {
  /** RFC 8176 values are short lowercase words (`pwd`, `hwk`, `fed`...). */
  amrValue: /^[a-z]{2,8}$/,
  amrValues: 4,
  fieldName: /^[A-Za-z][A-Za-z0-9_]{0,63}$/,
  fields: 4,
  stringLength: 256,
} as const

/** The first factor of a password sign-in, when the cookie names none. */
export const PASSWORD_FIRST_FACTOR: readonly string[] = ['pwd']

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
  /** How the first factor was proven, as RFC 8176 values: `['pwd']` for the password, `['fed']` for an SSO sign-in. */
  readonly firstFactor: readonly string[]
  /** Fields the new session gets, asked for by the plugin that checked the first factor (`ssoProviderId`). */
  readonly sessionFields: Readonly<Record<string, PendingFieldValue>>
}

export function setPendingCookie(ctx: Jar, pending: PendingSignIn, maxAge: number): void {
  const expires = Math.floor(ctx.clock.now().getTime() / 1000) + maxAge
  const password = pending.firstFactor.length === 1 && pending.firstFactor[0] === 'pwd'
  const fields = Object.keys(pending.sessionFields).length > 0
  ctx.cookies.setSigned(
    PENDING_COOKIE,
    encode({
      u: pending.userId,
      r: pending.rememberMe,
      v: pending.trustVersion,
      c: pending.credentialVersion,
      e: expires,
      // A password sign-in's cookie stays as it was: no first factor named, no fields.
      ...(password ? {} : { a: pending.firstFactor }),
      ...(fields ? { f: pending.sessionFields } : {}),
    }),
    { maxAge },
  )
}

/** The `amr` values of a cookie: absent is the password; otherwise 1 to 4 short lowercase words. Null: malformed. */
function readFirstFactor(value: unknown): readonly string[] | null {
  if (value === undefined) return PASSWORD_FIRST_FACTOR
  if (!Array.isArray(value) || value.length === 0 || value.length > PENDING_LIMITS.amrValues) return null
  return value.every((entry) => typeof entry === 'string' && PENDING_LIMITS.amrValue.test(entry)) ? (value as string[]) : null
}

/** Whether `value` is one a pending sign-in may carry into a session field. */
export function isPendingFieldValue(value: unknown): value is PendingFieldValue {
  if (value === null || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  return typeof value === 'string' && value.length <= PENDING_LIMITS.stringLength
}

/** The session fields of a cookie: absent is none; otherwise up to 4 named JSON values. Null: malformed. */
function readSessionFields(value: unknown): Readonly<Record<string, PendingFieldValue>> | null {
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const entries = Object.entries(value)
  if (entries.length > PENDING_LIMITS.fields) return null
  for (const [name, field] of entries) if (!PENDING_LIMITS.fieldName.test(name) || !isPendingFieldValue(field)) return null
  return Object.fromEntries(entries) as Record<string, PendingFieldValue>
}

/** The pending sign-in of this browser, or null when absent, tampered with or expired. */
export function readPendingCookie(ctx: Jar): PendingSignIn | null {
  const value = decode(ctx.cookies.getSigned(PENDING_COOKIE))
  if (!value || typeof value.u !== 'string' || typeof value.v !== 'string' || typeof value.e !== 'number') return null
  if (value.e * 1000 <= ctx.clock.now().getTime()) return null
  // A cookie from before credential versions existed has none to hold: it signs in again.
  if (value.c !== null && typeof value.c !== 'string') return null
  // Signed by this server, so malformed means a bug or another version's cookie: sign in again rather than guess.
  const firstFactor = readFirstFactor(value.a)
  const sessionFields = readSessionFields(value.f)
  if (!firstFactor || !sessionFields) return null
  return { userId: value.u, rememberMe: value.r !== false, trustVersion: value.v, credentialVersion: value.c, firstFactor, sessionFields }
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
