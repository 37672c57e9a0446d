/**
 * @module
 * TOTP (RFC 6238) on `@oslojs/otp`'s HOTP (RFC 4226, HMAC-SHA1 with dynamic
 * truncation): the counter is the time step `floor(unix seconds / period)`,
 * read from the injected clock so tests can move time. A code matches when
 * it equals the code of the current step or of one step either side (the
 * window, RFC 6238 §5.2, for clock drift); the matching step is returned so
 * the caller can refuse any step at or before the last one used (replays).
 */
import { constantTimeEqual } from '@gatehouse/core'
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp'

export interface TotpParameters {
  readonly digits: number
  readonly period: number
  readonly window: number
}

/** The time step of `now` (RFC 6238 §4.2: T = floor((unix time - T0) / X), T0 = 0). */
export function timeStep(now: Date, period: number): number {
  return Math.floor(now.getTime() / 1000 / period)
}

/**
 * The code for one time step.
 *
 * @example
 * await totpForStep(secret, timeStep(new Date(59_000), 30), 8) // '94287082' for the RFC's SHA1 key
 */
export async function totpForStep(secret: Uint8Array, step: number, digits: number): Promise<string> {
  return generateHOTP(secret, BigInt(step), digits)
}

/**
 * The step among `now`'s and its neighbours whose code is `code`, or null.
 * Every candidate is computed and compared in constant time: the answer's
 * timing does not tell which step was close.
 *
 * @example
 * const step = await matchTotp(secret, '123456', clock.now(), { digits: 6, period: 30, window: 1 })
 */
export async function matchTotp(secret: Uint8Array, code: string, now: Date, parameters: TotpParameters): Promise<number | null> {
  if (code.length !== parameters.digits || !/^[0-9]+$/.test(code)) return null
  const current = timeStep(now, parameters.period)
  let matched: number | null = null
  for (let offset = -parameters.window; offset <= parameters.window; offset++) {
    const step = current + offset
    if (step < 0) continue
    const expected = await totpForStep(secret, step, parameters.digits)
    if (constantTimeEqual(expected, code) && matched === null) matched = step
  }
  return matched
}

/**
 * The otpauth:// URI authenticator apps read from a QR code (the Key URI
 * format of Google Authenticator: base32 secret, issuer, digits, period).
 *
 * @example
 * await totpURI(secret, { issuer: 'Acme', account: 'ada@example.com', digits: 6, period: 30 })
 */
export async function totpURI(secret: Uint8Array, details: { issuer: string; account: string; digits: number; period: number }): Promise<string> {
  return createTOTPKeyURI(details.issuer, details.account, secret, details.period, details.digits)
}
