/**
 * @module
 * Changing the address by code (docs/email-otp.md#changing-the-address),
 * with `changeEmail.enabled`:
 *
 * - POST /email-otp/request-email-change `{ newEmail, otp? }`: mails a code
 *   to the new address, bound to both addresses. With `verifyCurrentEmail`
 *   the current address proves itself first (`otp`, an `email-verification`
 *   code). A new address that another account holds gets no mail, after the
 *   same answer.
 * - POST /email-otp/change-email `{ newEmail, otp }`: in the code's
 *   transaction, the address moves (compare-and-set on the current one) and
 *   is verified: the code proved the new mailbox. Racing another account for
 *   the address, the unique index decides: EMAIL_ALREADY_IN_USE.
 *
 * Both need the session from the store and refuse a session that came from
 * an API key or another credential (the address is how a password is reset:
 * it is a credential).
 */
import {
  AuthError,
  clearEmailMoves,
  CoreErrors,
  credentialSessionMiddleware,
  defineEndpoint,
  isUniqueViolation,
  normalizeEmail,
  publicRow,
  refreshUserInStorage,
  setCookieCache,
  type AfterAnswer,
  type Row,
  type SessionWithUser,
  type User,
} from '@gatehouse/core'
import { z } from 'zod'
import { codeTarget, sendCode, useCode } from '../codes.js'
import { EmailOTPErrors } from '../errors.js'
import type { ResolvedEmailOTPOptions } from '../options.js'

function addresses(options: ResolvedEmailOTPOptions, session: SessionWithUser, rawNewEmail: string) {
  if (!options.changeEmail.enabled) throw new AuthError(EmailOTPErrors.CHANGE_EMAIL_DISABLED)
  const newEmail = normalizeEmail(rawNewEmail)
  if (!newEmail) throw new AuthError(CoreErrors.INVALID_EMAIL)
  const email = session.user.email
  if (newEmail === email) throw new AuthError(EmailOTPErrors.EMAIL_IS_THE_SAME)
  return { email, newEmail }
}

export function requestEmailChangeEmailOTP(options: ResolvedEmailOTPOptions, later: AfterAnswer) {
  return defineEndpoint({
    method: 'POST',
    path: '/email-otp/request-email-change',
    body: z.lazy(() => z.object({ newEmail: z.string(), otp: z.string().optional() })),
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const { email, newEmail } = addresses(options, ctx.session, ctx.body.newEmail)
      if (options.changeEmail.verifyCurrentEmail) {
        if (!ctx.body.otp) throw new AuthError(EmailOTPErrors.OTP_REQUIRED)
        await useCode(ctx, options, codeTarget('email-verification', email), ctx.body.otp, async () => undefined)
      }
      await sendCode(ctx, options, later, {
        type: 'change-email',
        email: newEmail,
        target: codeTarget('change-email', email, newEmail),
        // Only a free address gets the code: one another account holds could never be moved onto.
        deliverTo: (holder) => holder === null,
      })
      return { success: true }
    },
  })
}

export function changeEmailEmailOTP(options: ResolvedEmailOTPOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/email-otp/change-email',
    body: z.lazy(() => z.object({ newEmail: z.string(), otp: z.string() })),
    use: [credentialSessionMiddleware],
    handler: async (ctx) => {
      const { session } = ctx
      const { email, newEmail } = addresses(options, session, ctx.body.newEmail)
      const updated = await useCode(ctx, options, codeTarget('change-email', email, newEmail), ctx.body.otp, async (tx) => {
        const holder = await tx.findOne<User & Row>({ model: 'user', where: { field: 'email', value: newEmail } })
        if (holder) throw new AuthError(EmailOTPErrors.EMAIL_ALREADY_IN_USE)
        const moved = await tx
          .update<User & Row>({
            model: 'user',
            where: [
              { field: 'id', value: session.user.id },
              { field: 'email', value: email },
            ],
            update: { email: newEmail, emailVerified: true },
          })
          .catch((error: unknown) => {
            if (isUniqueViolation(error)) throw new AuthError(EmailOTPErrors.EMAIL_ALREADY_IN_USE)
            throw error
          })
        // The address changed since the code was sent: it was for a change that no longer applies.
        if (!moved) throw new AuthError(EmailOTPErrors.INVALID_OTP)
        await clearEmailMoves(tx, session.user.id)
        return moved
      })
      await refreshUserInStorage(ctx.auth, updated)
      setCookieCache(ctx, { session: session.session, user: publicRow(ctx.auth.schema, 'user', updated) })
      return { success: true }
    },
  })
}
