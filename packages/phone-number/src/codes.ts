/**
 * @module
 * The plugin's codes in core's one-time code store (docs/plugins.md#one-time-codes):
 * `phone-number:verify` codes (verify a number, sign in or up by it, add it to
 * an account) and `phone-number:reset` codes, each for one number in E.164.
 */
import { redeemCodeOrThrow, type CodeTarget, type EndpointContext, type Store } from '@gatehouse/core'
import { PhoneNumberErrors } from './errors.js'
import type { ResolvedPhoneNumberOptions } from './options.js'

export type CodePurpose = 'verify' | 'reset'

export function codeTarget(purpose: CodePurpose, phoneNumber: string): CodeTarget {
  return { purpose: `phone-number:${purpose}`, destination: phoneNumber }
}

const errors = { invalid: PhoneNumberErrors.INVALID_OTP, expired: PhoneNumberErrors.OTP_EXPIRED, tooManyAttempts: PhoneNumberErrors.TOO_MANY_ATTEMPTS }

/** Checks the code; when right, runs `onValid` in its transaction; throws the code's refusal otherwise. */
export function useCode<R>(ctx: EndpointContext, options: ResolvedPhoneNumberOptions, target: CodeTarget, code: string, onValid: (tx: Store) => Promise<R>): Promise<R> {
  return redeemCodeOrThrow(ctx.auth, target, code, { allowedAttempts: options.allowedAttempts, errors }, onValid)
}
