/**
 * @module
 * POST /phone-number/verify `{ phoneNumber, code, disableSession?, updatePhoneNumber?, ...fields }`
 * (docs/phone-number.md#verifying-and-signing-in). A right `verify` code
 * proves the number, and only the number:
 *
 * - `updatePhoneNumber: true`: the signed-in user (session read from the
 *   store, never an API key's) takes the number, verified, unless another
 *   account holds it (PHONE_NUMBER_EXIST; the unique index decides a race).
 * - otherwise the account holding the number is signed in (unless
 *   `disableSession`), through core's first-factor end: amr `sms`, a user
 *   with two-factor on gets `{ twoFactorRedirect: true }` and no session; a
 *   code never stands in for a factor the user enrolled. No account: with
 *   `signUpOnVerification` one is created (the app's additional fields from
 *   the body, a placeholder address that is not verified), else 400
 *   PHONE_NUMBER_NOT_EXIST: whoever holds a right code has the phone.
 *
 * The code's use, the user's creation or update commit together.
 */
import {
  AuthError,
  completeFirstFactor,
  defineEndpoint,
  isUniqueViolation,
  normalizeEmail,
  optionalSensitiveSessionMiddleware,
  pickAdditionalFields,
  publicRow,
  refreshUserInStorage,
  refuseForeignCredential,
  setCookieCache,
  type Row,
  type Store,
  type User,
} from '@gatehouse/core'
import { z } from 'zod'
import { codeTarget, useCode } from '../codes.js'
import { PhoneNumberErrors } from '../errors.js'
import { normalizePhoneNumber } from '../numbers.js'
import type { ResolvedPhoneNumberOptions } from '../options.js'

type UserRow = User & Row

function holderOf(db: Store, phoneNumber: string): Promise<UserRow | null> {
  return db.findOne<UserRow>({ model: 'user', where: { field: 'phoneNumber', value: phoneNumber } })
}

function taken(error: unknown): never {
  if (isUniqueViolation(error)) throw new AuthError(PhoneNumberErrors.PHONE_NUMBER_EXIST)
  throw error
}

export function verifyPhoneNumber(options: ResolvedPhoneNumberOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/phone-number/verify',
    body: z.lazy(() =>
      z.object({ phoneNumber: z.string(), code: z.string(), disableSession: z.boolean().optional(), updatePhoneNumber: z.boolean().optional() }).loose(),
    ),
    use: [optionalSensitiveSessionMiddleware],
    handler: async (ctx) => {
      const { body, auth } = ctx
      const phoneNumber = await normalizePhoneNumber(options, body.phoneNumber)
      const target = codeTarget('verify', phoneNumber)

      if (body.updatePhoneNumber) {
        const session = ctx.session
        if (!session) throw new AuthError({ code: 'UNAUTHORIZED', status: 401, message: 'Unauthorized' })
        // The number signs the account in: only a session of the user's own may set it.
        refuseForeignCredential(session)
        const user = await useCode(ctx, options, target, body.code, async (tx) => {
          const holder = await holderOf(tx, phoneNumber)
          if (holder && holder.id !== session.user.id) throw new AuthError(PhoneNumberErrors.PHONE_NUMBER_EXIST)
          const updated = await tx
            .update<UserRow>({ model: 'user', where: { field: 'id', value: session.user.id }, update: { phoneNumber, phoneNumberVerified: true } })
            .catch(taken)
          if (!updated) throw new AuthError(PhoneNumberErrors.INVALID_OTP)
          return updated
        })
        await refreshUserInStorage(auth, user)
        const visible = publicRow(auth.schema, 'user', user)
        setCookieCache(ctx, { session: session.session, user: visible })
        await options.callbackOnVerification?.({ phoneNumber, user: visible }, ctx)
        return { status: true, token: null as string | null, user: visible }
      }

      const extra = pickAdditionalFields(ctx.options.user?.additionalFields, body, 'create')
      const user = await useCode(ctx, options, target, body.code, async (tx) => {
        const holder = await holderOf(tx, phoneNumber)
        if (holder) {
          if (holder.phoneNumberVerified === true) return holder
          return (await tx.update<UserRow>({ model: 'user', where: { field: 'id', value: holder.id }, update: { phoneNumberVerified: true } })) ?? holder
        }
        const signUp = options.signUpOnVerification
        if (!signUp) throw new AuthError(PhoneNumberErrors.PHONE_NUMBER_NOT_EXIST)
        const email = normalizeEmail(signUp.getTempEmail(phoneNumber))
        if (!email) throw new Error('phoneNumber: signUpOnVerification.getTempEmail must return a valid address')
        return tx
          .create<UserRow>({
            model: 'user',
            data: { ...extra, email, emailVerified: false, name: signUp.getTempName?.(phoneNumber) ?? phoneNumber, image: null, phoneNumber, phoneNumberVerified: true },
          })
          .catch(taken)
      })
      const visible = publicRow(auth.schema, 'user', user)
      await options.callbackOnVerification?.({ phoneNumber, user: visible }, ctx)
      if (body.disableSession) return { status: true, token: null as string | null, user: visible }
      const outcome = await completeFirstFactor(ctx, user, { amr: ['sms'], rememberMe: true }).catch((error: unknown) => {
        if (error instanceof AuthError && error.code === 'CREDENTIALS_CHANGED') throw new AuthError(PhoneNumberErrors.INVALID_OTP)
        throw error
      })
      if (outcome.challenge) return Response.json(outcome.challenge)
      return { status: true, token: outcome.session.token as string | null, user: visible }
    },
  })
}
