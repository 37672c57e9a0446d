/**
 * @module
 * How a session was signed in, as core's `session.amr` holds it: space-separated
 * RFC 8176 values (docs/two-factor.md#how-the-session-records-the-second-factor).
 * Passing the second factor adds `otp` (RFC 8176 §2: a one-time password; a TOTP
 * code, an emailed code and a single-use backup code all are one) and `mfa`
 * (more than one factor), to the first factor's own value (`pwd` for a password,
 * `fed` for an SSO sign-in: services/first-factor.ts).
 */

/** What passing the second factor adds to a session's `amr`. */
export const SECOND_FACTOR_AMR: readonly string[] = ['otp', 'mfa']

/**
 * What a sign-in completed by the second step records: the first factor, then the one-time code.
 *
 * @example
 * signInAmr(['pwd']) // ['pwd', 'otp', 'mfa']
 * signInAmr(['fed']) // ['fed', 'otp', 'mfa']
 */
export function signInAmr(firstFactor: readonly string[]): string[] {
  return [...new Set([...firstFactor, ...SECOND_FACTOR_AMR])]
}

/**
 * The stored `amr` text with `values` added, each once, in order.
 *
 * @example
 * withAmr('email', SECOND_FACTOR_AMR) // 'email otp mfa'
 */
export function withAmr(stored: unknown, values: readonly string[]): string {
  const current = typeof stored === 'string' ? stored.split(' ').filter(Boolean) : []
  return [...new Set([...current, ...values])].join(' ')
}
