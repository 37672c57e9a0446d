/**
 * @module
 * The plugin's codes in core's one-time code store (docs/plugins.md#one-time-codes):
 * one purpose per type, the address as destination (for a change, the
 * current and the new address together, so a code for one change never
 * confirms another), and the mail sent now or after the answer.
 *
 * Sending (docs/email-otp.md#enumeration): where the existence of an account
 * decides whether a mail goes out (every type but `sign-in` with sign-up
 * allowed), a code is stored either way and the mail callback runs after the
 * answer; an address without an account, or with nothing to do (verifying a
 * verified address), gets its code deleted instead. The answer, its time and
 * the writes before it are the same for a known and an unknown address.
 */
import {
  deliverMail,
  discardCode,
  findUserByEmail,
  issueCode,
  limitSends,
  redeemCodeOrThrow,
  type AfterAnswer,
  type CodeTarget,
  type EndpointContext,
  type Store,
  type User,
} from '@gatehouse/core'
import { EmailOTPErrors } from './errors.js'
import type { OTPType, ResolvedEmailOTPOptions } from './options.js'

export function codeTarget(type: OTPType, email: string, newEmail?: string): CodeTarget {
  return { purpose: `email-otp:${type}`, destination: newEmail === undefined ? email : `${email}\n${newEmail}` }
}

const errors = { invalid: EmailOTPErrors.INVALID_OTP, expired: EmailOTPErrors.OTP_EXPIRED, tooManyAttempts: EmailOTPErrors.TOO_MANY_ATTEMPTS }

/**
 * Checks the code and, when it is right, runs `onValid` in its transaction; throws the code's refusal otherwise.
 *
 * @example
 * const user = await useCode(ctx, options, codeTarget('sign-in', email), body.otp, (tx) => findOrCreate(tx, email))
 */
export function useCode<R>(
  ctx: EndpointContext,
  options: ResolvedEmailOTPOptions,
  target: CodeTarget,
  otp: string,
  onValid: (tx: Store) => Promise<R>,
  keep = false,
): Promise<R> {
  return redeemCodeOrThrow(ctx.auth, target, otp, { allowedAttempts: options.allowedAttempts, keep, errors }, onValid)
}

/**
 * Stores a code for `type` and `email` and mails it: at once when every address gets one (`deliverTo`
 * null), else after the answer, when `deliverTo(user)` says the account found should get it.
 */
export async function sendCode(
  ctx: EndpointContext,
  options: ResolvedEmailOTPOptions,
  later: AfterAnswer,
  mail: { readonly type: OTPType; readonly email: string; readonly target: CodeTarget; readonly deliverTo: ((user: User | null) => boolean) | null },
): Promise<void> {
  await limitSends(ctx.auth, 'email-otp', mail.email, options.sendLimits)
  const otp = await issueCode(ctx.auth, mail.target, { digits: options.digits, expiresIn: options.expiresIn })
  const data = { email: mail.email, otp, type: mail.type }
  const { deliverTo } = mail
  if (deliverTo === null) {
    try {
      await deliverMail(ctx, 'email-otp', options.send, data)
    } catch (error) {
      await discardCode(ctx.auth, mail.target)
      throw error
    }
    return
  }
  const user = await findUserByEmail(ctx.db, mail.email)
  later.schedule(
    ctx.logger,
    async () => {
      if (!deliverTo(user)) return discardCode(ctx.auth, mail.target)
      await deliverMail(ctx, 'email-otp', options.send, data).catch(() => discardCode(ctx.auth, mail.target))
    },
    'email otp',
  )
}
