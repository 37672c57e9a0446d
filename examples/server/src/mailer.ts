/**
 * @module
 * The example's outbox. There is no mail server: each email is printed to
 * the console with its link, so a developer can click through, and appended
 * to MAIL_LOG (when set) as one JSON line, so test harnesses can follow the
 * links a real user would get by mail.
 */
import { jsonLines } from './json-lines.js'

export type MailType =
  | 'verify-email'
  | 'reset-password'
  | 'change-email'
  | 'delete-account'
  | 'invitation'
  | 'magic-link'
  | 'two-factor'
  | 'two-factor-lockout'
  | 'email-otp'

export interface Mail {
  readonly type: MailType
  readonly to: string
  readonly subject: string
  readonly url: string
  readonly token?: string
  readonly invitationId?: string
  /** `two-factor` mails: the one-time sign-in code (docs/two-factor.md#email-codes); `email-otp` mails: the code (docs/email-otp.md). */
  readonly otp?: string
  /** `email-otp` mails: what the code is for: `sign-in`, `email-verification`, `forget-password` or `change-email`. */
  readonly otpType?: string
  /** `two-factor-lockout` mails: which codes are locked, and until when (docs/two-factor.md#attempts-and-lockout). */
  readonly factor?: string
  readonly until?: string
}

/** A text message of the phone-number plugin, as SMS_LOG records it (docs/phone-number.md). */
export interface TextMessage {
  readonly to: string
  readonly code: string
  /** `verification` (send-otp: verify, sign in or up, add the number) or `password-reset`. */
  readonly type: 'verification' | 'password-reset'
}

export interface Mailer {
  send(mail: Mail): Promise<void>
  /** Sends a text message: printed, and appended to SMS_LOG when set. */
  text(sms: TextMessage): Promise<void>
}

/**
 * @example
 * const mailer = createMailer({ logFile: process.env.MAIL_LOG, print: console.log })
 * await mailer.send({ type: 'reset-password', to: 'ada@example.com', subject: 'Reset your password', url, token })
 */
export function createMailer(options: { logFile: string | undefined; smsLogFile?: string | undefined; print: (line: string) => void }): Mailer {
  const log = options.logFile === undefined ? undefined : jsonLines(options.logFile)
  const smsLog = options.smsLogFile === undefined ? undefined : jsonLines(options.smsLogFile)
  return {
    async send(mail) {
      options.print(`[mail] ${mail.type} to ${mail.to}: ${mail.subject}\n       ${mail.url}`)
      await log?.append(mail)
    },
    async text(sms) {
      options.print(`[sms] ${sms.type} to ${sms.to}: ${sms.code}`)
      await smsLog?.append(sms)
    },
  }
}
