/**
 * @module
 * What `emailOTP(options)` accepts, and its defaults (docs/email-otp.md#options).
 */
import { DEFAULT_SEND_LIMITS, resolveCodeOptions, type MailContext, type SendLimit } from '@gatehouse/core'

export const OTP_TYPES = ['email-verification', 'sign-in', 'forget-password', 'change-email'] as const
export type OTPType = (typeof OTP_TYPES)[number]

/** What the mail callback receives: the address to mail, the code, and what it is for. */
export interface EmailOTPMail {
  readonly email: string
  readonly otp: string
  readonly type: OTPType
}

export interface EmailOTPOptions {
  /**
   * Mails the code. Called for addresses with an account and, for `sign-in` while sign-up is allowed, for any
   * address; where an account decides, it runs after the answer. Keep it fast (queue the mail).
   */
  readonly sendVerificationOTP: (data: EmailOTPMail, ctx: MailContext) => void | Promise<void>
  /** Digits of a code; 6 by default and at least 6. */
  readonly otpLength?: number
  /** Seconds a code stays valid; 300 by default. */
  readonly expiresIn?: number
  /** Wrong tries after which a code is void; 3 by default. */
  readonly allowedAttempts?: number
  /** A code never creates a user: sign-in codes go to known addresses only. False by default. */
  readonly disableSignUp?: boolean
  /** POST /email-otp/request-email-change and /email-otp/change-email; `verifyCurrentEmail` asks a code of the current address first. */
  readonly changeEmail?: { readonly enabled?: boolean; readonly verifyCurrentEmail?: boolean }
  /** Requests per window and client on each route; 3 per 60 seconds by default. */
  readonly rateLimit?: { readonly window?: number; readonly max?: number }
  /** Codes one address may receive, whoever asks; 3 a minute and 10 an hour by default. */
  readonly sendLimits?: readonly SendLimit[]
}

export interface ResolvedEmailOTPOptions {
  readonly send: EmailOTPOptions['sendVerificationOTP']
  readonly digits: number
  readonly expiresIn: number
  readonly allowedAttempts: number
  readonly disableSignUp: boolean
  readonly changeEmail: { readonly enabled: boolean; readonly verifyCurrentEmail: boolean }
  readonly rateLimit: { readonly window: number; readonly max: number }
  readonly sendLimits: readonly SendLimit[]
}

export function resolveOptions(options: EmailOTPOptions): ResolvedEmailOTPOptions {
  if (typeof options?.sendVerificationOTP !== 'function') throw new Error('emailOTP: sendVerificationOTP is required')
  const { digits, expiresIn, allowedAttempts } = resolveCodeOptions('emailOTP', options)
  return {
    send: options.sendVerificationOTP,
    digits,
    expiresIn,
    allowedAttempts,
    disableSignUp: options.disableSignUp ?? false,
    changeEmail: { enabled: options.changeEmail?.enabled ?? false, verifyCurrentEmail: options.changeEmail?.verifyCurrentEmail ?? false },
    rateLimit: { window: options.rateLimit?.window ?? 60, max: options.rateLimit?.max ?? 3 },
    sendLimits: options.sendLimits ?? DEFAULT_SEND_LIMITS,
  }
}
