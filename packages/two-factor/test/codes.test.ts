/**
 * Backup codes and mailed codes through `auth.handler`, and the races on
 * the in-memory adapter: twenty parallel verifications of one TOTP code, one
 * backup code or one mailed code make exactly one session.
 */
import { describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { appCode, enroll, getSession, passwordStep, post, rows, twoFactorAuth } from './fixtures.js'

describe('POST /two-factor/verify-backup-code', () => {
  it('signs in with a backup code once; typed in capitals with dashes it still matches', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const code = user.backupCodes[3] as string
    const pending = await passwordStep(auth, user.email)
    const typed = `${code.slice(0, 5)}-${code.slice(5)}`.toUpperCase()
    const used = await post(auth, '/two-factor/verify-backup-code', { code: typed }, pending.cookie)
    expect(used).toMatchObject({ status: 200, body: { status: true, token: expect.any(String), user: { id: user.userId } } })
    expect((await getSession(auth, used.cookie)).user.id).toBe(user.userId)
    expect(await rows(auth, 'twoFactorBackupCode', user.userId)).toHaveLength(9)

    const again = await passwordStep(auth, user.email)
    expect(await post(auth, '/two-factor/verify-backup-code', { code }, again.cookie)).toMatchObject({ status: 401, body: { code: 'INVALID_CODE' } })
  })

  it('another user’s code does not work', async () => {
    const auth = twoFactorAuth()
    const ada = await enroll(auth)
    const grace = await enroll(auth, 'grace@example.com')
    const pending = await passwordStep(auth, grace.email)
    expect((await post(auth, '/two-factor/verify-backup-code', { code: ada.backupCodes[0] }, pending.cookie)).status).toBe(401)
    expect(await rows(auth, 'twoFactorBackupCode', ada.userId)).toHaveLength(10)
  })
})

describe('email codes', () => {
  it('send-otp mails a 6-digit code to the pending user, stored only as a keyed hash', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth, undefined, { emailCodes: true })
    const pending = await passwordStep(auth, user.email)
    expect(await post(auth, '/two-factor/send-otp', {}, pending.cookie)).toMatchObject({ status: 200, body: { status: true } })
    expect(auth.otps).toHaveLength(1)
    expect(auth.otps[0]?.user).toMatchObject({ id: user.userId, email: user.email })
    expect(auth.lastOtp()).toMatch(/^[0-9]{6}$/)
    const { db } = await auth.$context
    const stored = await db.findMany<{ identifier: string; value: string; expiresAt: Date }>({ model: 'verification' })
    expect(stored).toHaveLength(1)
    expect(stored[0]?.identifier).toBe(`two-factor-otp:${user.userId}`)
    expect(stored[0]?.value).not.toContain(auth.lastOtp())
    expect(stored[0]?.expiresAt).toEqual(new Date(auth.clock.now().getTime() + 300_000))
  })

  it('verify-otp signs in once with the mailed code', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth, undefined, { emailCodes: true })
    const pending = await passwordStep(auth, user.email, { rememberMe: false })
    await post(auth, '/two-factor/send-otp', {}, pending.cookie)
    const wrong = auth.lastOtp() === '000000' ? '111111' : '000000'
    expect(await post(auth, '/two-factor/verify-otp', { code: wrong }, pending.cookie)).toMatchObject({ status: 401, body: { code: 'INVALID_CODE' } })
    const ok = await post(auth, '/two-factor/verify-otp', { code: auth.lastOtp() }, pending.cookie)
    expect(ok).toMatchObject({ status: 200, body: { status: true, token: expect.any(String) } })
    expect(ok.setCookies.some((line) => line.includes('dont_remember'))).toBe(true)
    const again = await passwordStep(auth, user.email)
    expect((await post(auth, '/two-factor/verify-otp', { code: auth.lastOtp() }, again.cookie)).status).toBe(401)
  })

  it('a code expires after 5 minutes, and dies after 3 wrong tries', async () => {
    const auth = twoFactorAuth({ lockout: { maxAttempts: 10 } })
    const user = await enroll(auth, undefined, { emailCodes: true })
    const pending = await passwordStep(auth, user.email)
    await post(auth, '/two-factor/send-otp', {}, pending.cookie)
    auth.clock.advance(300_000)
    expect((await post(auth, '/two-factor/verify-otp', { code: auth.lastOtp() }, pending.cookie)).status).toBe(401)

    const fresh = await passwordStep(auth, user.email)
    await post(auth, '/two-factor/send-otp', {}, fresh.cookie)
    const code = auth.lastOtp()
    const wrong = code === '000000' ? '111111' : '000000'
    for (let attempt = 0; attempt < 3; attempt++) await post(auth, '/two-factor/verify-otp', { code: wrong }, fresh.cookie)
    expect((await post(auth, '/two-factor/verify-otp', { code }, fresh.cookie)).status).toBe(401)
    const { db } = await auth.$context
    expect(await db.count({ model: 'verification' })).toBe(0)
  })

  it('a new code replaces the previous one', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth, undefined, { emailCodes: true })
    const pending = await passwordStep(auth, user.email)
    await post(auth, '/two-factor/send-otp', {}, pending.cookie)
    const first = auth.lastOtp()
    await post(auth, '/two-factor/send-otp', {}, pending.cookie)
    if (first !== auth.lastOtp()) expect((await post(auth, '/two-factor/verify-otp', { code: first }, pending.cookie)).status).toBe(401)
    expect((await post(auth, '/two-factor/verify-otp', { code: auth.lastOtp() }, pending.cookie)).status).toBe(200)
  })

  it('without otpOptions: 400; without a pending sign-in or session: 401; without two-factor: 400', async () => {
    const plain = twoFactorAuth({ otpOptions: undefined })
    expect(await post(plain, '/two-factor/send-otp', {})).toMatchObject({ status: 400, body: { code: 'OTP_NOT_CONFIGURED' } })
    const auth = twoFactorAuth()
    expect(await post(auth, '/two-factor/send-otp', {})).toMatchObject({ status: 401, body: { code: 'NO_PENDING_SIGN_IN' } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    expect(await post(auth, '/two-factor/send-otp', {}, cookie)).toMatchObject({ status: 400, body: { code: 'TWO_FACTOR_NOT_ENABLED' } })
    expect(auth.otps).toHaveLength(0)
  })

  it('a failing mail callback answers 500 and leaves no code behind', async () => {
    const auth = twoFactorAuth({
      otpOptions: {
        sendOTP: () => {
          throw new Error('smtp down')
        },
      },
    })
    const user = await enroll(auth, undefined, { emailCodes: true })
    const pending = await passwordStep(auth, user.email)
    expect(await post(auth, '/two-factor/send-otp', {}, pending.cookie)).toMatchObject({ status: 500, body: { code: 'FAILED_TO_SEND_EMAIL' } })
    const { db } = await auth.$context
    expect(await db.count({ model: 'verification' })).toBe(0)
  })
})

describe('races (in-memory adapter)', () => {
  const twenty = <T>(fn: () => Promise<T>) => Promise.all(Array.from({ length: 20 }, fn))

  it('twenty parallel verifications of one TOTP code: one session', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const before = (await rows(auth, 'session', user.userId)).length
    const pending = await passwordStep(auth, user.email)
    const code = appCode(user.secret, auth.clock.now())
    const results = await twenty(() => post(auth, '/two-factor/verify-totp', { code }, pending.cookie))
    expect(results.filter((result) => result.status === 200)).toHaveLength(1)
    expect(results.every((result) => result.status === 200 || result.status === 401 || result.status === 429)).toBe(true)
    expect(await rows(auth, 'session', user.userId)).toHaveLength(before + 1)
  })

  it('twenty parallel uses of one backup code: one session, the code gone', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const pending = await passwordStep(auth, user.email)
    const results = await twenty(() => post(auth, '/two-factor/verify-backup-code', { code: user.backupCodes[0] }, pending.cookie))
    expect(results.filter((result) => result.status === 200)).toHaveLength(1)
    expect(await rows(auth, 'twoFactorBackupCode', user.userId)).toHaveLength(9)
  })

  it('twenty parallel uses of one mailed code: one session', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth, undefined, { emailCodes: true })
    const pending = await passwordStep(auth, user.email)
    await post(auth, '/two-factor/send-otp', {}, pending.cookie)
    const results = await twenty(() => post(auth, '/two-factor/verify-otp', { code: auth.lastOtp() }, pending.cookie))
    expect(results.filter((result) => result.status === 200)).toHaveLength(1)
  })
})
