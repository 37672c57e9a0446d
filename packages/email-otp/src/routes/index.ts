/**
 * @module
 * The email-otp endpoints by `auth.api` name (docs/email-otp.md#routes), named as the leading library's.
 */
import { createAfterAnswer, type AfterAnswer } from '@gatehouse/core'
import type { ResolvedEmailOTPOptions } from '../options.js'
import { changeEmailEmailOTP, requestEmailChangeEmailOTP } from './change-email.js'
import { createVerificationOTP, forgetPasswordEmailOTP, requestPasswordResetEmailOTP, sendVerificationOTP } from './send.js'
import { signInEmailOTP } from './sign-in.js'
import { checkVerificationOTP, resetPasswordEmailOTP, verifyEmailOTP } from './verify.js'

export function emailOTPEndpoints(options: ResolvedEmailOTPOptions, later: AfterAnswer = createAfterAnswer()) {
  return {
    sendVerificationOTP: sendVerificationOTP(options, later),
    createVerificationOTP: createVerificationOTP(options),
    checkVerificationOTP: checkVerificationOTP(options),
    verifyEmailOTP: verifyEmailOTP(options),
    signInEmailOTP: signInEmailOTP(options),
    requestPasswordResetEmailOTP: requestPasswordResetEmailOTP(options, later),
    forgetPasswordEmailOTP: forgetPasswordEmailOTP(options, later),
    resetPasswordEmailOTP: resetPasswordEmailOTP(options),
    requestEmailChangeEmailOTP: requestEmailChangeEmailOTP(options, later),
    changeEmailEmailOTP: changeEmailEmailOTP(options),
  }
}

export type EmailOTPEndpoints = ReturnType<typeof emailOTPEndpoints>
