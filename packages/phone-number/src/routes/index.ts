/**
 * @module
 * The phone-number endpoints by `auth.api` name (docs/phone-number.md#routes), named as the leading library's.
 */
import { createAfterAnswer, type AfterAnswer } from '@gatehouse/core'
import type { ResolvedPhoneNumberOptions } from '../options.js'
import { resetPasswordPhoneNumber, signInPhoneNumber } from './password.js'
import { requestPasswordResetPhoneNumber, sendPhoneNumberOTP } from './send.js'
import { verifyPhoneNumber } from './verify.js'

export function phoneNumberEndpoints(options: ResolvedPhoneNumberOptions, later: AfterAnswer = createAfterAnswer()) {
  return {
    signInPhoneNumber: signInPhoneNumber(options),
    sendPhoneNumberOTP: sendPhoneNumberOTP(options),
    verifyPhoneNumber: verifyPhoneNumber(options),
    requestPasswordResetPhoneNumber: requestPasswordResetPhoneNumber(options, later),
    resetPasswordPhoneNumber: resetPasswordPhoneNumber(options),
  }
}

export type PhoneNumberEndpoints = ReturnType<typeof phoneNumberEndpoints>
