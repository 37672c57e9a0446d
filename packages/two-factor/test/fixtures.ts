/**
 * Fixtures for the two-factor flows: an auth with the plugin on the
 * in-memory adapter (or a given database), an outbox for mailed codes and
 * lockout notices,
 * request shorthands returning status, body and the next Cookie header, and
 * an independent TOTP (node:crypto HMAC-SHA1, RFC 4226 §5.3) to compute the
 * codes an authenticator app would show.
 */
import { createHmac } from 'node:crypto'
import type { GatehousePlugin } from '@gatehouse/core'
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { accountAuth, browserAnswer, cookieHeader, PASSWORD, signUp, type BrowserAnswer } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import type { TwoFactorLockout, TwoFactorOptions, TwoFactorOTPMail } from '../src/options.js'
import { twoFactor } from '../src/plugin.js'

export { BASE, cookieHeader, PASSWORD }

export type TwoFactorAuth = ReturnType<typeof twoFactorAuth>

/** `others`: plugins beside two-factor, reached over HTTP only (the typed `api` knows two-factor's routes). */
export function twoFactorAuth(options: Partial<TwoFactorOptions> = {}, core: Parameters<typeof accountAuth>[0] = {}, others: readonly GatehousePlugin[] = []) {
  const otps: TwoFactorOTPMail[] = []
  const lockouts: TwoFactorLockout[] = []
  const auth = accountAuth({
    ...core,
    plugins: [twoFactor({ otpOptions: { sendOTP: (mail) => void otps.push(mail) }, onLockout: (notice) => void lockouts.push(notice), ...options }), ...others],
  })
  return Object.assign(auth, { otps, lockouts, lastOtp: () => otps[otps.length - 1]?.otp ?? '' })
}

export type Answer = BrowserAnswer

export async function post(auth: TwoFactorAuth, path: string, json: unknown, cookie = '', headers: Record<string, string> = {}): Promise<Answer> {
  const response = await auth.handler(
    request(`/api/auth${path}`, { json: json ?? {}, headers: { origin: BASE, ...(cookie ? { cookie } : {}), ...headers } }),
  )
  return browserAnswer(response, cookie)
}

export async function getSession(auth: TwoFactorAuth, cookie: string) {
  const response = await auth.handler(request('/api/auth/get-session', { headers: { cookie } }))
  return response.json()
}

/** An authenticator app's code for `secret` at `now` (offset in steps). */
export function appCode(secret: Uint8Array, now: Date, offset = 0, digits = 6, period = 30): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(now.getTime() / 1000 / period) + offset))
  const mac = createHmac('sha1', secret).update(counter).digest()
  const start = (mac[mac.length - 1] as number) & 0x0f
  const number = mac.readUInt32BE(start) & 0x7fffffff
  return String(number % 10 ** digits).padStart(digits, '0')
}

export function secretOf(totpURI: string): Uint8Array {
  return decodeBase32IgnorePadding(new URL(totpURI).searchParams.get('secret') ?? '')
}

export interface Enrolled {
  readonly email: string
  readonly userId: string
  /** The signed-in browser's cookies. */
  readonly cookie: string
  readonly secret: Uint8Array
  readonly backupCodes: string[]
}

/**
 * Signs up, enables and confirms two-factor (consuming the current step), with `emailCodes` also chooses
 * emailed codes (enable-otp, proven by the confirming session), then moves the clock one period on.
 */
export async function enroll(auth: TwoFactorAuth, email = 'ada@example.com', { emailCodes = false } = {}): Promise<Enrolled> {
  const signedUp = await signUp(auth, { email })
  const enabled = await post(auth, '/two-factor/enable', { password: PASSWORD }, signedUp.cookie)
  if (enabled.status !== 200) throw new Error(`enable failed: ${JSON.stringify(enabled.body)}`)
  const secret = secretOf(enabled.body.totpURI)
  const confirmed = await post(auth, '/two-factor/verify-totp', { code: appCode(secret, auth.clock.now()) }, enabled.cookie)
  if (confirmed.status !== 200) throw new Error(`confirm failed: ${JSON.stringify(confirmed.body)}`)
  if (emailCodes) {
    const chosen = await post(auth, '/two-factor/enable-otp', { password: PASSWORD }, confirmed.cookie)
    if (chosen.status !== 200) throw new Error(`enable-otp failed: ${JSON.stringify(chosen.body)}`)
  }
  auth.clock.advance(30_000)
  return { email, userId: signedUp.body.user.id, cookie: confirmed.cookie, secret, backupCodes: enabled.body.backupCodes }
}

/** The password step of a sign-in; its cookie holds only the pending sign-in. */
export function passwordStep(auth: TwoFactorAuth, email: string, extra: Record<string, unknown> = {}, cookie = '') {
  return post(auth, '/sign-in/email', { email, password: PASSWORD, ...extra }, cookie)
}

export async function rows(auth: TwoFactorAuth, model: string, userId: string) {
  const { db } = await auth.$context
  return db.findMany<Record<string, unknown>>({ model, where: { field: 'userId', value: userId } })
}

export function cookieNamed(setCookies: readonly string[], short: string): string | undefined {
  return setCookies.find((line) => line.split('=')[0]?.endsWith(short))
}
