/**
 * @module
 * The password by phone number (docs/phone-number.md#routes):
 *
 * - POST /sign-in/phone-number `{ phoneNumber, password, rememberMe? }`:
 *   core's password sign-in on the account holding the number: the same
 *   answer and work for an unknown number and a wrong password (401
 *   INVALID_PHONE_NUMBER_OR_PASSWORD), the strict `/sign-in/*` limit, a
 *   second factor still asked.
 * - POST /phone-number/reset-password `{ phoneNumber, otp, newPassword }`:
 *   a right `reset` code applies core's reset in its transaction: the
 *   password is replaced or created and every session, grant and pending
 *   sign-in ends. The code proves the phone only: the address is not marked
 *   verified by it. 404 without `sendPasswordResetOTP`.
 */
import { applyPasswordReset, AuthError, CoreErrors, defineEndpoint, reportPasswordReset, signInWithPassword, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { codeTarget, useCode } from '../codes.js'
import { PhoneNumberErrors } from '../errors.js'
import { normalizePhoneNumber } from '../numbers.js'
import type { ResolvedPhoneNumberOptions } from '../options.js'

export function signInPhoneNumber(options: ResolvedPhoneNumberOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/sign-in/phone-number',
    body: z.lazy(() => z.object({ phoneNumber: z.string(), password: z.string(), rememberMe: z.boolean().optional() })),
    handler: async (ctx) => {
      if (!ctx.options.emailAndPassword?.enabled) throw new AuthError(CoreErrors.EMAIL_PASSWORD_DISABLED)
      const phoneNumber = await normalizePhoneNumber(options, ctx.body.phoneNumber)
      const user = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'phoneNumber', value: phoneNumber } })
      return signInWithPassword(ctx, user, { password: ctx.body.password, rememberMe: ctx.body.rememberMe, invalid: PhoneNumberErrors.INVALID_PHONE_NUMBER_OR_PASSWORD })
    },
  })
}

export function resetPasswordPhoneNumber(options: ResolvedPhoneNumberOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/phone-number/reset-password',
    body: z.lazy(() => z.object({ phoneNumber: z.string(), otp: z.string(), newPassword: z.string() })),
    handler: async (ctx) => {
      const { auth } = ctx
      if (!options.sendPasswordResetOTP) throw new AuthError(PhoneNumberErrors.PASSWORD_RESET_DISABLED)
      const phoneNumber = await normalizePhoneNumber(options, ctx.body.phoneNumber)
      auth.passwords.checkLength(ctx.body.newPassword)
      // Hashed before the code is checked, so the check and the reset commit together; the route's limit bounds the cost.
      const hash = await auth.passwords.hash(ctx.body.newPassword)
      const user = await useCode(ctx, options, codeTarget('reset', phoneNumber), ctx.body.otp, async (tx) => {
        const holder = await tx.findOne<User & Row>({ model: 'user', where: { field: 'phoneNumber', value: phoneNumber } })
        if (!holder) throw new AuthError(PhoneNumberErrors.PHONE_NUMBER_NOT_EXIST)
        return applyPasswordReset(auth, { user: holder, hash, db: tx, provesMailbox: false })
      })
      await reportPasswordReset(ctx, user)
      return { status: true }
    },
  })
}
