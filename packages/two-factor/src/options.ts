/**
 * @module
 * What `twoFactor(options)` accepts, and its defaults (docs/two-factor.md#options):
 * TOTP with 6 digits (1 to 8 allowed), a 30-second period and a window of one
 * step either side (RFC 6238 §5.2); 10 backup codes of 10 characters; email
 * codes valid 5 minutes; 5 wrong codes per user and budget, then a lockout of
 * 5 minutes that doubles each time it engages again without a right code in
 * between, up to 24 hours; a trusted device for 30 days; 10 minutes to
 * finish a sign-in, and 10 minutes during which a session that passed the
 * second factor counts as proof of it. Resolved once, when the plugin is made.
 */
import type { MailContext, User } from '@gatehouse/core'

type MaybePromise<T> = T | Promise<T>

/** What the email-code callback receives: the user and the code to mail. */
export interface TwoFactorOTPMail {
  readonly user: User
  readonly otp: string
}

/**
 * The kind of code whose wrong guess engaged a lockout. TOTP and emailed
 * codes share one budget, backup codes have their own
 * (docs/two-factor.md#attempts-and-lockout).
 */
export type TwoFactorFactor = 'totp' | 'otp' | 'backup-code'

/** What `onLockout` receives: whose codes are locked, which budget, and until when. Never a code. */
export interface TwoFactorLockout {
  readonly user: User
  readonly factor: TwoFactorFactor
  readonly until: Date
}

export interface TwoFactorOptions {
  /** The issuer shown by authenticator apps. Default the `appName`, else "Gatehouse". */
  readonly issuer?: string | undefined
  /** TOTP digits, 1 to 8. Default 6. */
  readonly digits?: number | undefined
  /** TOTP period in seconds. Default 30. */
  readonly period?: number | undefined
  /** Email codes (send-otp / verify-otp). Without `sendOTP` those two routes answer 400. */
  readonly otpOptions?: {
    readonly sendOTP: (data: TwoFactorOTPMail, ctx: MailContext) => MaybePromise<void>
    /** Seconds a mailed code stays valid. Default 300. */
    readonly expiresIn?: number | undefined
  } | undefined
  /** How many backup codes, and their length. Default 10 codes of 10 characters (at least 10). */
  readonly backupCodes?: { readonly amount?: number | undefined; readonly length?: number | undefined } | undefined
  /**
   * Wrong codes per user and budget before a lockout (default 5); the first lockout's length in seconds
   * (default 300), doubled each time it engages again without a right code in between, up to `maxDuration`
   * seconds (default 86400, 24 hours).
   */
  readonly lockout?: { readonly maxAttempts?: number | undefined; readonly duration?: number | undefined; readonly maxDuration?: number | undefined } | undefined
  /**
   * Called once a lockout engages, after it is stored: tell the owner (someone who knows their password is
   * guessing codes). A failing callback is logged and changes no answer.
   */
  readonly onLockout?: ((data: TwoFactorLockout, ctx: MailContext) => MaybePromise<void>) | undefined
  /**
   * Seconds a session that passed the second factor (the second step of its sign-in, a code checked while
   * signed in, or the confirmation of the setup) counts as proof of it for get-totp-uri,
   * generate-backup-codes and disable. Default 600.
   */
  readonly proofMaxAge?: number | undefined
  /** Seconds a "trust this device" cookie lasts. Default 30 days. */
  readonly trustDeviceMaxAge?: number | undefined
  /** Seconds between the password step and the second step of a sign-in. Default 600. */
  readonly pendingMaxAge?: number | undefined
}

export interface ResolvedTwoFactorOptions {
  readonly issuer: string | undefined
  readonly digits: number
  readonly period: number
  /** Steps accepted either side of the current one (RFC 6238 §5.2): fixed at 1. */
  readonly window: number
  readonly otp: { readonly send: NonNullable<TwoFactorOptions['otpOptions']>['sendOTP']; readonly expiresIn: number } | null
  readonly backupCodes: { readonly amount: number; readonly length: number }
  readonly lockout: { readonly maxAttempts: number; readonly duration: number; readonly maxDuration: number }
  readonly onLockout: NonNullable<TwoFactorOptions['onLockout']> | null
  readonly proofMaxAge: number
  readonly trustDeviceMaxAge: number
  readonly pendingMaxAge: number
}

export const TOTP_DIGITS = 6
export const TOTP_PERIOD = 30
export const TOTP_WINDOW = 1

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`twoFactor() ${name} must be a positive whole number`)
  return value
}

/**
 * @example
 * resolveTwoFactorOptions({}).digits // 6
 */
export function resolveTwoFactorOptions(options: TwoFactorOptions = {}): ResolvedTwoFactorOptions {
  const digits = options.digits ?? TOTP_DIGITS
  if (!Number.isInteger(digits) || digits < 1 || digits > 8) throw new Error('twoFactor() digits must be 1 to 8')
  const sendOTP = options.otpOptions?.sendOTP
  if (options.otpOptions && typeof sendOTP !== 'function') throw new Error('twoFactor() otpOptions needs a sendOTP function')
  const length = positive('backupCodes.length', options.backupCodes?.length ?? 10)
  // 10 characters of a 32-letter alphabet carry 50 bits: with the per-user lockout, far out of guessing reach.
  if (length < 10) throw new Error('twoFactor() backupCodes.length must be at least 10')
  const duration = positive('lockout.duration', options.lockout?.duration ?? 300)
  const maxDuration = positive('lockout.maxDuration', options.lockout?.maxDuration ?? Math.max(24 * 60 * 60, duration))
  if (maxDuration < duration) throw new Error('twoFactor() lockout.maxDuration must be at least lockout.duration')
  if (options.onLockout !== undefined && typeof options.onLockout !== 'function') throw new Error('twoFactor() onLockout must be a function')
  return {
    issuer: options.issuer,
    digits,
    period: positive('period', options.period ?? TOTP_PERIOD),
    window: TOTP_WINDOW,
    otp: sendOTP ? { send: sendOTP, expiresIn: positive('otpOptions.expiresIn', options.otpOptions?.expiresIn ?? 300) } : null,
    backupCodes: { amount: positive('backupCodes.amount', options.backupCodes?.amount ?? 10), length },
    lockout: { maxAttempts: positive('lockout.maxAttempts', options.lockout?.maxAttempts ?? 5), duration, maxDuration },
    onLockout: options.onLockout ?? null,
    proofMaxAge: positive('proofMaxAge', options.proofMaxAge ?? 600),
    trustDeviceMaxAge: positive('trustDeviceMaxAge', options.trustDeviceMaxAge ?? 30 * 24 * 60 * 60),
    pendingMaxAge: positive('pendingMaxAge', options.pendingMaxAge ?? 600),
  }
}
