/**
 * @module
 * The routes that text a code (docs/phone-number.md#routes):
 *
 * - POST /phone-number/send-otp `{ phoneNumber }`: a `verify` code, to any
 *   valid number (proving a number needs no account), answered
 *   `{ message: 'code sent' }`; a failing SMS callback answers 500 and
 *   deletes the code.
 * - POST /phone-number/request-password-reset `{ phoneNumber }`: a `reset`
 *   code, sent only to a number an account holds, after the answer, which
 *   is `{ status: true }` either way. 404 without `sendPasswordResetOTP`.
 *
 * Both count against the number's budget of codes, whoever asks.
 */
import { AuthError, createAfterAnswer, defineEndpoint, deliverMail, discardCode, issueCode, limitSends, type AfterAnswer, type Row } from '@gatehouse/core'
import { z } from 'zod'
import { codeTarget } from '../codes.js'
import { PhoneNumberErrors } from '../errors.js'
import { normalizePhoneNumber } from '../numbers.js'
import type { ResolvedPhoneNumberOptions } from '../options.js'

const phoneOnly = z.lazy(() => z.object({ phoneNumber: z.string() }))

export function sendPhoneNumberOTP(options: ResolvedPhoneNumberOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/phone-number/send-otp',
    body: phoneOnly,
    handler: async (ctx) => {
      const phoneNumber = await normalizePhoneNumber(options, ctx.body.phoneNumber)
      await limitSends(ctx.auth, 'phone-number', phoneNumber, options.sendLimits)
      const target = codeTarget('verify', phoneNumber)
      const code = await issueCode(ctx.auth, target, { digits: options.digits, expiresIn: options.expiresIn })
      try {
        await deliverMail(ctx, 'phone-number', options.sendOTP, { phoneNumber, code })
      } catch (error) {
        await discardCode(ctx.auth, target)
        throw error
      }
      return { message: 'code sent' }
    },
  })
}

export function requestPasswordResetPhoneNumber(options: ResolvedPhoneNumberOptions, later: AfterAnswer = createAfterAnswer()) {
  return defineEndpoint({
    method: 'POST',
    path: '/phone-number/request-password-reset',
    body: phoneOnly,
    handler: async (ctx) => {
      const send = options.sendPasswordResetOTP
      if (!send) throw new AuthError(PhoneNumberErrors.PASSWORD_RESET_DISABLED)
      const phoneNumber = await normalizePhoneNumber(options, ctx.body.phoneNumber)
      await limitSends(ctx.auth, 'phone-number', phoneNumber, options.sendLimits)
      const target = codeTarget('reset', phoneNumber)
      const code = await issueCode(ctx.auth, target, { digits: options.digits, expiresIn: options.expiresIn })
      const holder = await ctx.db.findOne<Row>({ model: 'user', where: { field: 'phoneNumber', value: phoneNumber } })
      // The same answer, time and writes for a number with and without an account; the message goes after.
      later.schedule(
        ctx.logger,
        async () => {
          if (!holder) return discardCode(ctx.auth, target)
          await deliverMail(ctx, 'phone-number', send, { phoneNumber, code }).catch(() => discardCode(ctx.auth, target))
        },
        'phone number',
      )
      return { status: true }
    },
  })
}
