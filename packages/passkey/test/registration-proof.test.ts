/**
 * What registering a passkey takes besides a fresh session
 * (docs/passkeys.md#registering-a-passkey), when passkeys end
 * (docs/passkeys.md#when-passkeys-end) and the session's `amr`
 * (docs/passkeys.md#how-the-session-records-a-passkey). The attacker holds a
 * fresh session of the victim (a stolen cookie, a script in the app), or the
 * victim's mailbox, and tries to plant a passkey: a lasting way in that skips
 * the second step.
 */
import { describe, expect, it } from 'vitest'
import { accountAuth, signUp } from '../../core/test/accounts.js'
import { request } from '../../core/test/helpers.js'
import { twoFactor } from '../../two-factor/src/plugin.js'
import { appCode, secretOf } from '../../two-factor/test/fixtures.js'
import { passkey } from '../src/plugin.js'
import { authenticatorFor, BASE, call, newUser, PASSWORD, passkeyAuth, registerPasskey, signInWithPasskey, type PasskeyAuth } from './fixtures.js'

const PASSWORD_REQUIRED = { status: 403, body: { code: 'PASSWORD_REQUIRED', message: 'Your password is required to add a passkey' } }
const SECOND_FACTOR_REQUIRED = { status: 403, body: { code: 'SECOND_FACTOR_REQUIRED' } }

async function passkeyRows(auth: Pick<PasskeyAuth, '$context'>, userId: string) {
  const { db } = await auth.$context
  return db.findMany<Record<string, unknown>>({ model: 'passkey', where: { field: 'userId', value: userId } })
}

/** An auth with passkeys and two-factor, the user's TOTP on and confirmed by the session returned. */
async function twoFactorUser(proofMaxAge = 600) {
  const otps: string[] = []
  const sendOTP = ({ otp }: { otp: string }) => void otps.push(otp)
  const auth = accountAuth({ plugins: [passkey(), twoFactor({ proofMaxAge, otpOptions: { sendOTP } })] })
  const { cookie, body } = await signUp(auth, { email: 'ada@example.com' })
  const enabled = await call(auth, '/two-factor/enable', cookie, { password: PASSWORD })
  const secret = secretOf(enabled.body.totpURI)
  expect((await call(auth, '/two-factor/verify-totp', cookie, { code: appCode(secret, auth.clock.now()) })).status).toBe(200)
  return { auth, cookie, userId: body.user.id as string, secret, otps }
}

async function resetByMail(auth: Pick<PasskeyAuth, 'handler' | 'mailbox'>, email: string) {
  await auth.handler(request('/api/auth/request-password-reset', { json: { email }, headers: { origin: BASE } }))
  const token = auth.mailbox.last('reset-password')?.token ?? ''
  const reset = await auth.handler(request('/api/auth/reset-password', { json: { newPassword: 'a brand new passphrase', token }, headers: { origin: BASE } }))
  expect(reset.status).toBe(200)
}

describe('an account with a password and no second factor', () => {
  it('a fresh session alone plants no passkey: the password is asked, checked, and can be given again', async () => {
    const auth = passkeyAuth()
    const { cookie, userId } = await newUser(auth)
    const options = await call(auth, '/passkey/generate-register-options', cookie)
    expect(options.status).toBe(200)
    const response = authenticatorFor().register(options.body)
    expect(await call(auth, '/passkey/verify-registration', options.cookie, { response })).toMatchObject(PASSWORD_REQUIRED)
    expect(await call(auth, '/passkey/verify-registration', options.cookie, { response, password: 'not the password' })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PASSWORD' },
    })
    expect(await passkeyRows(auth, userId)).toEqual([])
    // Refused before the challenge was used: the same answer, with the password, registers.
    expect((await call(auth, '/passkey/verify-registration', options.cookie, { response, password: PASSWORD })).status).toBe(200)
    expect(await passkeyRows(auth, userId)).toHaveLength(1)
  })
})

describe('an account with neither password nor second factor (magic link, social)', () => {
  it('registers with a fresh session alone, as before', async () => {
    const auth = passkeyAuth()
    const { cookie, userId } = await newUser(auth)
    const { db } = await auth.$context
    await db.deleteMany({ model: 'account', where: { field: 'userId', value: userId } })
    const { verified } = await registerPasskey(auth, authenticatorFor(), cookie, { password: null })
    expect(verified.status).toBe(200)
  })
})

describe('an account with two-factor on', () => {
  it('a session that did not pass the second factor recently gets no options, password or not', async () => {
    const { auth, cookie, userId } = await twoFactorUser(60)
    // Options asked while the proof was fresh: the proof is asked again when the answer comes.
    const options = await call(auth, '/passkey/generate-register-options', cookie)
    expect(options.status).toBe(200)
    auth.clock.advance(120_000)
    const response = authenticatorFor().register(options.body)
    expect(await call(auth, '/passkey/verify-registration', options.cookie, { response, password: PASSWORD })).toMatchObject(SECOND_FACTOR_REQUIRED)
    expect(await call(auth, '/passkey/generate-register-options', cookie)).toMatchObject(SECOND_FACTOR_REQUIRED)
    expect(await passkeyRows(auth, userId)).toEqual([])
  })

  it('the mailbox-only attacker, through an emailed code, plants no passkey', async () => {
    const { auth, cookie, userId, otps } = await twoFactorUser()
    // The owner chose emailed codes (proven by the confirming session).
    expect((await call(auth, '/two-factor/enable-otp', cookie, { password: PASSWORD })).status).toBe(200)
    await resetByMail(auth, 'ada@example.com')
    const pending = await call(auth, '/sign-in/email', '', { email: 'ada@example.com', password: 'a brand new passphrase' })
    expect(pending.body).toEqual({ twoFactorRedirect: true })
    expect((await call(auth, '/two-factor/send-otp', pending.cookie, {})).status).toBe(200)
    const mailed = await call(auth, '/two-factor/verify-otp', pending.cookie, { code: otps.at(-1) })
    expect(mailed.status).toBe(200)
    expect(await call(auth, '/passkey/generate-register-options', mailed.cookie)).toMatchObject(SECOND_FACTOR_REQUIRED)
    expect(await passkeyRows(auth, userId)).toEqual([])
  })

  it('a session that just passed a TOTP code registers, without the password', async () => {
    const { auth, cookie, userId, secret } = await twoFactorUser()
    auth.clock.advance(600_000)
    expect((await call(auth, '/two-factor/verify-totp', cookie, { code: appCode(secret, auth.clock.now()) })).status).toBe(200)
    const { verified } = await registerPasskey(auth, authenticatorFor(), cookie, { password: null })
    expect(verified.status).toBe(200)
    expect(await passkeyRows(auth, userId)).toHaveLength(1)
  })

  it('a password reset of the (verified) account ends its passkeys', async () => {
    const { auth, cookie, userId } = await twoFactorUser()
    // A verified address: the reset is no first proof of the mailbox, which ends passkeys of any account.
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: userId }, update: { emailVerified: true } })
    const key = authenticatorFor()
    expect((await registerPasskey(auth, key, cookie)).verified.status).toBe(200)
    await resetByMail(auth, 'ada@example.com')
    expect(await passkeyRows(auth, userId)).toEqual([])
    expect((await signInWithPasskey(auth, key)).status).toBe(401)
  })
})

describe('the session a passkey signs in', () => {
  it('amr: hwk and user, and mfa when the authenticator verified the user', async () => {
    const auth = passkeyAuth({ userVerification: 'preferred' })
    const verifying = authenticatorFor()
    const { cookie, userId } = await newUser(auth)
    await registerPasskey(auth, verifying, cookie)
    const presenceOnly = authenticatorFor({ userVerified: false })
    await registerPasskey(auth, presenceOnly, cookie)
    const withUv = await signInWithPasskey(auth, verifying)
    const withoutUv = await signInWithPasskey(auth, presenceOnly)
    expect([withUv.status, withoutUv.status]).toEqual([200, 200])
    const { db } = await auth.$context
    const sessions = await db.findMany<{ amr: string | null }>({ model: 'session', where: { field: 'userId', value: userId } })
    expect(sessions.map((row) => row.amr).sort()).toEqual(['hwk user', 'hwk user mfa', 'pwd'])
  })
})
