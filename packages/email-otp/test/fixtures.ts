/**
 * Fixtures for the email-code flows: an auth with the plugin on the
 * in-memory adapter (or a SQL backend), an outbox of every code mailed, and
 * request shorthands returning status, body and the next Cookie header.
 */
import type { AdapterFactory, GatehousePlugin } from '@gatehouse/core'
import { accountAuth, browserAnswer, PASSWORD } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import type { EmailOTPMail, EmailOTPOptions } from '../src/options.js'
import { emailOTP } from '../src/plugin.js'

export { BASE, PASSWORD }

export interface CodeAuthOptions {
  readonly emailOTP?: Partial<EmailOTPOptions>
  readonly database?: AdapterFactory
  readonly plugins?: readonly GatehousePlugin[]
  readonly core?: Omit<NonNullable<Parameters<typeof accountAuth>[0]>, 'plugins' | 'database'>
}

export function codeAuth(options: CodeAuthOptions = {}) {
  const outbox: EmailOTPMail[] = []
  const plugin = emailOTP({ sendVerificationOTP: (mail) => void outbox.push(mail), changeEmail: { enabled: true }, ...options.emailOTP })
  const auth = accountAuth({
    ...options.core,
    ...(options.database ? { database: options.database } : {}),
    plugins: [plugin, ...(options.plugins ?? [])],
  })
  return Object.assign(auth, {
    outbox,
    /** Waits for the mails sent after their answer. */
    flush: () => plugin.idle(),
    /** The last code mailed to `email` (of `type`), after the mails in flight went. */
    async codeFor(email: string, type?: EmailOTPMail['type']): Promise<string | undefined> {
      await plugin.idle()
      return [...outbox].reverse().find((mail) => mail.email === email && (type === undefined || mail.type === type))?.otp
    },
  })
}

export type CodeAuth = ReturnType<typeof codeAuth>

export async function post(auth: { handler(request: Request): Promise<Response> }, path: string, json: unknown, cookie = '', headers: Record<string, string> = {}) {
  const response = await auth.handler(request(`/api/auth${path}`, { json, headers: { origin: BASE, ...(cookie ? { cookie } : {}), ...headers } }))
  return browserAnswer(response, cookie)
}

/** Asks a code of `type` for `email`; the code as mailed (undefined when none was). */
export async function askCode(auth: CodeAuth, email: string, type: EmailOTPMail['type'] = 'sign-in', headers: Record<string, string> = {}) {
  const answer = await post(auth, '/email-otp/send-verification-otp', { email, type }, '', headers)
  if (answer.status !== 200) throw new Error(`send: ${answer.status} ${JSON.stringify(answer.body)}`)
  return auth.codeFor(email.toLowerCase(), type)
}

export function otherCode(code: string): string {
  return code === '000000' ? '111111' : '000000'
}

export async function rows(auth: CodeAuth, model: string, field: string, value: string) {
  const { db } = await auth.$context
  return db.findMany<Record<string, unknown>>({ model, where: { field, value } })
}
