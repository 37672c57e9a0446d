/**
 * @module
 * What `phoneNumber(options)` accepts, and its defaults (docs/phone-number.md#options).
 */
import { DEFAULT_SEND_LIMITS, resolveCodeOptions, type EndpointContext, type MailContext, type SendLimit, type User } from '@gatehouse/core'
import type { CountryCode } from 'libphonenumber-js/max'

/** What the SMS callbacks receive: the number in E.164 and the code. */
export interface PhoneNumberSMS {
  readonly phoneNumber: string
  readonly code: string
}

type SMSCallback = (sms: PhoneNumberSMS, ctx: MailContext) => void | Promise<void>

export interface PhoneNumberOptions {
  /** Sends a verification or sign-in code by SMS. Keep it fast (queue the message). */
  readonly sendOTP: SMSCallback
  /**
   * Sends a password-reset code. Without it, POST /phone-number/request-password-reset and
   * /phone-number/reset-password answer 404: a reset by SMS trusts the phone network with the
   * account (SIM swaps), so it is the application's choice (docs/phone-number.md#resetting-the-password).
   */
  readonly sendPasswordResetOTP?: SMSCallback
  /** The country of numbers typed without `+` and a country code, e.g. `'GB'`; without it such numbers are invalid. */
  readonly defaultCountry?: CountryCode
  /** A further check of a valid number in E.164 (an allow-list of countries, say). */
  readonly phoneNumberValidator?: (phoneNumber: string) => boolean | Promise<boolean>
  /** A right code for a number no account holds creates one, with the address and name these give. */
  readonly signUpOnVerification?: {
    readonly getTempEmail: (phoneNumber: string) => string
    readonly getTempName?: (phoneNumber: string) => string
  }
  /** Runs after a number was verified (in the answer's time; a throw fails the request after the change committed). */
  readonly callbackOnVerification?: (data: { readonly phoneNumber: string; readonly user: User }, ctx: EndpointContext) => void | Promise<void>
  /** Digits of a code; 6 by default and at least 6. */
  readonly otpLength?: number
  /** Seconds a code stays valid; 300 by default. */
  readonly expiresIn?: number
  /** Wrong tries after which a code is void; 3 by default. */
  readonly allowedAttempts?: number
  /** Requests per window and client on each route; 10 per 60 seconds by default, as the leading library's. */
  readonly rateLimit?: { readonly window?: number; readonly max?: number }
  /** Codes one number may receive, whoever asks; 3 a minute and 10 an hour by default. */
  readonly sendLimits?: readonly SendLimit[]
}

export interface ResolvedPhoneNumberOptions {
  readonly sendOTP: SMSCallback
  readonly sendPasswordResetOTP: SMSCallback | null
  readonly defaultCountry: CountryCode | undefined
  readonly phoneNumberValidator: ((phoneNumber: string) => boolean | Promise<boolean>) | null
  readonly signUpOnVerification: PhoneNumberOptions['signUpOnVerification'] | null
  readonly callbackOnVerification: PhoneNumberOptions['callbackOnVerification'] | null
  readonly digits: number
  readonly expiresIn: number
  readonly allowedAttempts: number
  readonly rateLimit: { readonly window: number; readonly max: number }
  readonly sendLimits: readonly SendLimit[]
}

export function resolveOptions(options: PhoneNumberOptions): ResolvedPhoneNumberOptions {
  if (typeof options?.sendOTP !== 'function') throw new Error('phoneNumber: sendOTP is required')
  const { digits, expiresIn, allowedAttempts } = resolveCodeOptions('phoneNumber', options)
  return {
    sendOTP: options.sendOTP,
    sendPasswordResetOTP: options.sendPasswordResetOTP ?? null,
    defaultCountry: options.defaultCountry,
    phoneNumberValidator: options.phoneNumberValidator ?? null,
    signUpOnVerification: options.signUpOnVerification ?? null,
    callbackOnVerification: options.callbackOnVerification ?? null,
    digits,
    expiresIn,
    allowedAttempts,
    rateLimit: { window: options.rateLimit?.window ?? 60, max: options.rateLimit?.max ?? 10 },
    sendLimits: options.sendLimits ?? DEFAULT_SEND_LIMITS,
  }
}
