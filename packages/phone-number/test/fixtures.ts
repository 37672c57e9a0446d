/**
 * Fixtures for the phone-number flows: an auth with the plugin on the
 * in-memory adapter (or a SQL backend), an outbox of every text message,
 * and request shorthands returning status, body and the next Cookie header.
 */
import type { AdapterFactory, GatehousePlugin } from '@gatehouse/core'
import { accountAuth, browserAnswer, PASSWORD } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import type { PhoneNumberOptions, PhoneNumberSMS } from '../src/options.js'
import { phoneNumber } from '../src/plugin.js'

export { BASE, PASSWORD }

/** Valid numbers of the US and French plans (libphonenumber's full metadata). */
export const ADA_PHONE = '+14155550100'
export const GRACE_PHONE = '+33612345678'

export interface PhoneAuthOptions {
  readonly phoneNumber?: Partial<PhoneNumberOptions>
  readonly database?: AdapterFactory
  readonly plugins?: readonly GatehousePlugin[]
  readonly core?: Omit<NonNullable<Parameters<typeof accountAuth>[0]>, 'plugins' | 'database'>
}

export interface SMS extends PhoneNumberSMS {
  readonly kind: 'verify' | 'reset'
}

export function phoneAuth(options: PhoneAuthOptions = {}) {
  const outbox: SMS[] = []
  const plugin = phoneNumber({
    sendOTP: (sms) => void outbox.push({ ...sms, kind: 'verify' }),
    sendPasswordResetOTP: (sms) => void outbox.push({ ...sms, kind: 'reset' }),
    signUpOnVerification: { getTempEmail: (number) => `${number.slice(1)}@phone.example.com` },
    ...options.phoneNumber,
  })
  const auth = accountAuth({
    ...options.core,
    ...(options.database ? { database: options.database } : {}),
    plugins: [plugin, ...(options.plugins ?? [])],
  })
  return Object.assign(auth, {
    outbox,
    async codeFor(number: string, kind: SMS['kind'] = 'verify'): Promise<string | undefined> {
      await plugin.idle()
      return [...outbox].reverse().find((sms) => sms.phoneNumber === number && sms.kind === kind)?.code
    },
  })
}

export type PhoneAuth = ReturnType<typeof phoneAuth>

export async function post(auth: { handler(request: Request): Promise<Response> }, path: string, json: unknown, cookie = '', headers: Record<string, string> = {}) {
  const response = await auth.handler(request(`/api/auth${path}`, { json, headers: { origin: BASE, ...(cookie ? { cookie } : {}), ...headers } }))
  return browserAnswer(response, cookie)
}

/** Texts a verify code to `number` and returns it. */
export async function textCode(auth: PhoneAuth, number: string): Promise<string> {
  const answer = await post(auth, '/phone-number/send-otp', { phoneNumber: number })
  if (answer.status !== 200) throw new Error(`send-otp: ${answer.status} ${JSON.stringify(answer.body)}`)
  return (await auth.codeFor(answer.body.message === 'code sent' ? normalized(number) : number))!
}

function normalized(number: string): string {
  return number.startsWith('+') ? number.replace(/[^\d+]/g, '') : number
}

export function otherCode(code: string): string {
  return code === '000000' ? '111111' : '000000'
}

export async function userWithPhone(auth: PhoneAuth, number: string) {
  const { db } = await auth.$context
  return db.findOne<Record<string, unknown>>({ model: 'user', where: { field: 'phoneNumber', value: number } })
}
