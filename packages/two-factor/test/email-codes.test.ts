/**
 * Emailed codes are a factor the user chooses (docs/two-factor.md#email-codes),
 * and never proof for the settings routes
 * (docs/two-factor.md#proof-of-the-second-factor). The attacker of
 * docs/security.md (a second factor that the password, the mailbox or a bare
 * passkey gets past) holds only the victim's mailbox: they reset the password,
 * then try to pass the second step by emailed code and to read the TOTP seed,
 * mint backup codes, turn two-factor off or choose emailed codes.
 */
import { describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { appCode, enroll, PASSWORD, passwordStep, post, rows, twoFactorAuth, type TwoFactorAuth } from './fixtures.js'

const NEW_PASSWORD = 'the attacker chose this'
const PROOF_REQUIRED = { status: 403, body: { code: 'TWO_FACTOR_PROOF_REQUIRED' } }
const OTP_NOT_ENABLED = { status: 400, body: { code: 'OTP_NOT_ENABLED', message: 'Email codes are not enabled for this account' } }

/** The mailbox alone: a reset link, a new password, the password step. The pending sign-in's cookie. */
async function resetThroughMailbox(auth: TwoFactorAuth, email: string): Promise<string> {
  expect((await post(auth, '/request-password-reset', { email, redirectTo: '/reset' })).status).toBe(200)
  const token = auth.mailbox.last('reset-password')?.token as string
  expect((await post(auth, '/reset-password', { token, newPassword: NEW_PASSWORD })).status).toBe(200)
  const pending = await post(auth, '/sign-in/email', { email, password: NEW_PASSWORD })
  expect(pending.body).toEqual({ twoFactorRedirect: true })
  return pending.cookie
}

describe('the mailbox-only attacker', () => {
  it('of a user who enrolled only TOTP gets no emailed code: no mail, no session', async () => {
    const auth = twoFactorAuth()
    const victim = await enroll(auth)
    // The victim's own signed-in session gets no code either: a step-up by mail is no more offered than a sign-in.
    expect(await post(auth, '/two-factor/send-otp', {}, victim.cookie)).toMatchObject(OTP_NOT_ENABLED)
    const pending = await resetThroughMailbox(auth, victim.email)
    expect(await post(auth, '/two-factor/send-otp', {}, pending)).toMatchObject(OTP_NOT_ENABLED)
    expect(auth.otps).toHaveLength(0)
    expect(await post(auth, '/two-factor/verify-otp', { code: '123456' }, pending)).toMatchObject(OTP_NOT_ENABLED)
    const sessions = await rows(auth, 'session', victim.userId)
    expect(sessions.filter((row) => row.twoFactorMethod === 'otp')).toHaveLength(0)
  })

  it('of a user who chose emailed codes signs in, but reads no seed, mints no codes and turns nothing off', async () => {
    const auth = twoFactorAuth()
    const victim = await enroll(auth, undefined, { emailCodes: true })
    const pending = await resetThroughMailbox(auth, victim.email)
    expect((await post(auth, '/two-factor/send-otp', {}, pending)).status).toBe(200)
    const signedIn = await post(auth, '/two-factor/verify-otp', { code: auth.lastOtp() }, pending)
    expect(signedIn).toMatchObject({ status: 200, body: { token: expect.any(String) } })
    const cookie = signedIn.cookie
    const before = (await rows(auth, 'twoFactorBackupCode', victim.userId)).map((row) => row.codeHash)

    expect(await post(auth, '/two-factor/get-totp-uri', { password: NEW_PASSWORD }, cookie)).toMatchObject({
      status: 400,
      body: { code: 'TWO_FACTOR_ALREADY_ENABLED' },
    })
    expect(await post(auth, '/two-factor/generate-backup-codes', { password: NEW_PASSWORD }, cookie)).toMatchObject(PROOF_REQUIRED)
    expect(await post(auth, '/two-factor/disable', { password: NEW_PASSWORD }, cookie)).toMatchObject(PROOF_REQUIRED)
    expect(await post(auth, '/two-factor/enable-otp', { password: NEW_PASSWORD }, cookie)).toMatchObject(PROOF_REQUIRED)
    // A second emailed code, as a step-up on that session, proves nothing more.
    expect((await post(auth, '/two-factor/send-otp', {}, cookie)).status).toBe(200)
    expect((await post(auth, '/two-factor/verify-otp', { code: auth.lastOtp() }, cookie)).status).toBe(200)
    expect(await post(auth, '/two-factor/generate-backup-codes', { password: NEW_PASSWORD }, cookie)).toMatchObject(PROOF_REQUIRED)
    expect(await post(auth, '/two-factor/disable', { password: NEW_PASSWORD }, cookie)).toMatchObject(PROOF_REQUIRED)

    expect((await rows(auth, 'twoFactorBackupCode', victim.userId)).map((row) => row.codeHash)).toEqual(before)
    expect(await rows(auth, 'twoFactor', victim.userId)).toHaveLength(1)
    // The victim's authenticator still works, and is still needed.
    const own = await passwordStep(auth, victim.email, { password: NEW_PASSWORD })
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(victim.secret, auth.clock.now()) }, own.cookie)).status).toBe(200)
  })
})

describe('POST /two-factor/enable-otp', () => {
  it('needs two-factor on, the password and proof of the second factor; then send-otp mails', async () => {
    const auth = twoFactorAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    expect(await post(auth, '/two-factor/enable-otp', { password: PASSWORD }, cookie)).toMatchObject({ status: 400, body: { code: 'TWO_FACTOR_NOT_ENABLED' } })
    // A setup not yet confirmed is not on.
    await post(auth, '/two-factor/enable', { password: PASSWORD }, cookie)
    expect(await post(auth, '/two-factor/enable-otp', { password: PASSWORD }, cookie)).toMatchObject({ status: 400, body: { code: 'TWO_FACTOR_NOT_ENABLED' } })

    const user = await enroll(auth, 'grace@example.com')
    auth.clock.advance(600_000)
    expect(await post(auth, '/two-factor/enable-otp', { password: 'nope nope' }, user.cookie)).toMatchObject({ status: 400, body: { code: 'INVALID_PASSWORD' } })
    expect(await post(auth, '/two-factor/enable-otp', { password: PASSWORD }, user.cookie)).toMatchObject(PROOF_REQUIRED)
    const code = appCode(user.secret, auth.clock.now())
    expect(await post(auth, '/two-factor/enable-otp', { password: PASSWORD, code }, user.cookie)).toMatchObject({ status: 200, body: { status: true } })
    expect(await rows(auth, 'twoFactor', user.userId)).toMatchObject([{ otpEnabled: true }])
    const pending = await passwordStep(auth, user.email)
    expect((await post(auth, '/two-factor/send-otp', {}, pending.cookie)).status).toBe(200)
    expect((await post(auth, '/two-factor/verify-otp', { code: auth.lastOtp() }, pending.cookie)).status).toBe(200)
  })

  it('without otpOptions: 400 OTP_NOT_CONFIGURED', async () => {
    const auth = twoFactorAuth({ otpOptions: undefined })
    const user = await enroll(auth)
    expect(await post(auth, '/two-factor/enable-otp', { password: PASSWORD }, user.cookie)).toMatchObject({ status: 400, body: { code: 'OTP_NOT_CONFIGURED' } })
  })
})

describe('POST /two-factor/disable-otp', () => {
  it('with the password: emailed codes stop, the code already mailed with them', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth, undefined, { emailCodes: true })
    const pending = await passwordStep(auth, user.email)
    expect((await post(auth, '/two-factor/send-otp', {}, pending.cookie)).status).toBe(200)
    const mailed = auth.lastOtp()
    expect(await post(auth, '/two-factor/disable-otp', { password: 'nope nope' }, user.cookie)).toMatchObject({ status: 400, body: { code: 'INVALID_PASSWORD' } })
    expect(await post(auth, '/two-factor/disable-otp', { password: PASSWORD }, user.cookie)).toMatchObject({ status: 200, body: { status: true } })
    expect(await post(auth, '/two-factor/verify-otp', { code: mailed }, pending.cookie)).toMatchObject(OTP_NOT_ENABLED)
    expect(await post(auth, '/two-factor/send-otp', {}, pending.cookie)).toMatchObject(OTP_NOT_ENABLED)
    const { db } = await auth.$context
    expect(await db.count({ model: 'verification', where: { field: 'identifier', value: `two-factor-otp:${user.userId}` } })).toBe(0)
    // The authenticator app is untouched.
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)).status).toBe(200)
  })

  it('a new setup after turning two-factor off starts without emailed codes', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth, undefined, { emailCodes: true })
    expect((await post(auth, '/two-factor/disable', { password: PASSWORD, code: user.backupCodes[0] }, user.cookie)).status).toBe(200)
    await post(auth, '/two-factor/enable', { password: PASSWORD }, user.cookie)
    expect(await rows(auth, 'twoFactor', user.userId)).toMatchObject([{ otpEnabled: false }])
  })
})

describe('how the session records the second factor', () => {
  it('a sign-in by TOTP, emailed or backup code: amr "pwd otp mfa" and the kind of code', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth, undefined, { emailCodes: true })
    const enrolling = (await rows(auth, 'session', user.userId)).map((row) => row.id)
    const byTotp = await passwordStep(auth, user.email)
    await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, byTotp.cookie)
    const byMail = await passwordStep(auth, user.email)
    await post(auth, '/two-factor/send-otp', {}, byMail.cookie)
    await post(auth, '/two-factor/verify-otp', { code: auth.lastOtp() }, byMail.cookie)
    const byBackup = await passwordStep(auth, user.email)
    await post(auth, '/two-factor/verify-backup-code', { code: user.backupCodes[0] }, byBackup.cookie)
    const made = (await rows(auth, 'session', user.userId)).filter((row) => !enrolling.includes(row.id))
    expect(made.map((row) => row.amr)).toEqual(['pwd otp mfa', 'pwd otp mfa', 'pwd otp mfa'])
    expect(made.map((row) => row.twoFactorMethod).sort()).toEqual(['backup-code', 'otp', 'totp'])
  })

  it('a step-up adds otp and mfa to the session amr, once', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const { db } = await auth.$context
    const [session] = await rows(auth, 'session', user.userId)
    await db.update({ model: 'session', where: { field: 'id', value: String(session?.id) }, update: { amr: 'pwd' } })
    auth.clock.advance(30_000)
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, user.cookie)).status).toBe(200)
    auth.clock.advance(30_000)
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, user.cookie)).status).toBe(200)
    expect((await rows(auth, 'session', user.userId))[0]).toMatchObject({ amr: 'pwd otp mfa', twoFactorMethod: 'totp' })
  })
})
