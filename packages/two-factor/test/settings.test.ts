/**
 * The settings routes through `auth.handler`: enable, confirming a setup
 * with verify-totp, get-totp-uri, generate-backup-codes and disable, with
 * their refusals, the stored rows (secret encrypted, codes hashed) and the
 * `twoFactorEnabled` flag get-session shows.
 */
import { describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { appCode, enroll, getSession, PASSWORD, passwordStep, post, rows, secretOf, twoFactorAuth } from './fixtures.js'

describe('POST /two-factor/enable', () => {
  it('needs a session and the password', async () => {
    const auth = twoFactorAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    expect(await post(auth, '/two-factor/enable', { password: PASSWORD })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
    expect(await post(auth, '/two-factor/enable', { password: 'wrong password' }, cookie)).toMatchObject({
      status: 400,
      body: { code: 'INVALID_PASSWORD', message: 'Invalid password' },
    })
    expect(await rows(auth, 'twoFactor', (await getSession(auth, cookie)).user.id)).toHaveLength(0)
  })

  it('answers the URI and 10 backup codes; stores the secret encrypted and the codes hashed; not on yet', async () => {
    const auth = twoFactorAuth()
    const { cookie, body } = await signUp(auth, { email: 'ada@example.com' })
    const userId = body.user.id as string
    const enabled = await post(auth, '/two-factor/enable', { password: PASSWORD }, cookie)
    expect(enabled.status).toBe(200)
    const uri = new URL(enabled.body.totpURI)
    expect(uri.protocol).toBe('otpauth:')
    expect(uri.searchParams.get('digits')).toBe('6')
    expect(uri.searchParams.get('period')).toBe('30')
    expect(uri.searchParams.get('issuer')).toBe('Gatehouse')
    expect(secretOf(enabled.body.totpURI)).toHaveLength(20)
    const codes = enabled.body.backupCodes as string[]
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{10}$/)

    const [row] = await rows(auth, 'twoFactor', userId)
    const base32 = uri.searchParams.get('secret') as string
    expect(row?.secret).toMatch(/^v1\./)
    expect(String(row?.secret)).not.toContain(base32)
    const stored = await rows(auth, 'twoFactorBackupCode', userId)
    expect(stored).toHaveLength(10)
    for (const code of codes) expect(stored.some((entry) => entry.codeHash === code)).toBe(false)
    expect((await getSession(auth, cookie)).user.twoFactorEnabled).toBe(false)
    // Not on until confirmed: the password alone still signs in.
    expect((await passwordStep(auth, 'ada@example.com')).body.token).toEqual(expect.any(String))
  })

  it('a second enable before confirming replaces the setup; after confirming it is refused', async () => {
    const auth = twoFactorAuth()
    const { cookie, body } = await signUp(auth, { email: 'ada@example.com' })
    const first = await post(auth, '/two-factor/enable', { password: PASSWORD }, cookie)
    const second = await post(auth, '/two-factor/enable', { password: PASSWORD }, cookie)
    expect(second.body.totpURI).not.toBe(first.body.totpURI)
    expect(await rows(auth, 'twoFactor', body.user.id)).toHaveLength(1)
    expect(await rows(auth, 'twoFactorBackupCode', body.user.id)).toHaveLength(10)
    // The first setup's secret no longer confirms.
    const stale = await post(auth, '/two-factor/verify-totp', { code: appCode(secretOf(first.body.totpURI), auth.clock.now()) }, cookie)
    expect(stale).toMatchObject({ status: 401, body: { code: 'INVALID_CODE', message: 'Invalid code' } })
    const confirmed = await post(auth, '/two-factor/verify-totp', { code: appCode(secretOf(second.body.totpURI), auth.clock.now()) }, cookie)
    expect(confirmed).toMatchObject({ status: 200, body: { status: true, token: null, user: { twoFactorEnabled: true } } })
    expect(await post(auth, '/two-factor/enable', { password: PASSWORD }, confirmed.cookie)).toMatchObject({
      status: 400,
      body: { code: 'TWO_FACTOR_ALREADY_ENABLED' },
    })
  })

  it('refuses an account without a password', async () => {
    const auth = twoFactorAuth()
    const { cookie, body } = await signUp(auth, { email: 'ada@example.com' })
    const { db } = await auth.$context
    await db.deleteMany({ model: 'account', where: { field: 'userId', value: body.user.id } })
    expect(await post(auth, '/two-factor/enable', { password: PASSWORD }, cookie)).toMatchObject({ status: 400, body: { code: 'NO_PASSWORD' } })
  })
})

describe('confirming a setup (verify-totp, signed in)', () => {
  it('a wrong code leaves it off; the right one turns it on, shown by get-session at once (cookie cache on)', async () => {
    const auth = twoFactorAuth({}, { session: { cookieCache: { enabled: true, maxAge: 300 } } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const enabled = await post(auth, '/two-factor/enable', { password: PASSWORD }, cookie)
    const secret = secretOf(enabled.body.totpURI)
    expect(await post(auth, '/two-factor/verify-totp', { code: '000000' }, cookie)).toMatchObject({ status: 401, body: { code: 'INVALID_CODE' } })
    expect((await getSession(auth, cookie)).user.twoFactorEnabled).toBe(false)
    const ok = await post(auth, '/two-factor/verify-totp', { code: appCode(secret, auth.clock.now(), -1) }, cookie)
    expect(ok.status).toBe(200)
    expect((await getSession(auth, ok.cookie)).user.twoFactorEnabled).toBe(true)
  })

  it('without a setup: 400 TOTP_NOT_SET_UP', async () => {
    const auth = twoFactorAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    expect(await post(auth, '/two-factor/verify-totp', { code: '123456' }, cookie)).toMatchObject({
      status: 400,
      body: { code: 'TOTP_NOT_SET_UP', message: 'TOTP is not set up' },
    })
  })
})

describe('POST /two-factor/get-totp-uri', () => {
  it('during a setup, answers the same secret for the right password only', async () => {
    const auth = twoFactorAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const enabled = await post(auth, '/two-factor/enable', { password: PASSWORD }, cookie)
    expect(await post(auth, '/two-factor/get-totp-uri', { password: 'nope nope' }, cookie)).toMatchObject({ status: 400, body: { code: 'INVALID_PASSWORD' } })
    const answer = await post(auth, '/two-factor/get-totp-uri', { password: PASSWORD }, cookie)
    expect(answer).toMatchObject({ status: 200, body: { totpURI: enabled.body.totpURI } })
  })

  it('once a code confirmed the setup, never hands the secret out again, whatever the proof', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const refused = { status: 400, body: { code: 'TWO_FACTOR_ALREADY_ENABLED' } }
    // The confirming session is fresh proof, and a TOTP code or a backup code is given: still refused.
    expect(await post(auth, '/two-factor/get-totp-uri', { password: PASSWORD }, user.cookie)).toMatchObject(refused)
    expect(await post(auth, '/two-factor/get-totp-uri', { password: PASSWORD, code: appCode(user.secret, auth.clock.now()) }, user.cookie)).toMatchObject(refused)
    expect(await post(auth, '/two-factor/get-totp-uri', { password: PASSWORD, code: user.backupCodes[0] }, user.cookie)).toMatchObject(refused)
    // Nothing was used up by the refusals.
    expect(await rows(auth, 'twoFactorBackupCode', user.userId)).toHaveLength(10)
    const pending = await passwordStep(auth, user.email)
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)).status).toBe(200)
  })

  it('without a setup: 400', async () => {
    const auth = twoFactorAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    expect(await post(auth, '/two-factor/get-totp-uri', { password: PASSWORD }, cookie)).toMatchObject({ status: 400, body: { code: 'TOTP_NOT_SET_UP' } })
  })
})

describe('POST /two-factor/generate-backup-codes', () => {
  it('replaces the codes: the old ones stop working, the new ones work', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    expect(await post(auth, '/two-factor/generate-backup-codes', { password: 'nope nope' }, user.cookie)).toMatchObject({ status: 400 })
    const fresh = await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, user.cookie)
    expect(fresh).toMatchObject({ status: 200, body: { status: true } })
    expect(fresh.body.backupCodes).toHaveLength(10)
    expect(fresh.body.backupCodes).not.toEqual(user.backupCodes)
    expect(await rows(auth, 'twoFactorBackupCode', user.userId)).toHaveLength(10)

    const pending = await passwordStep(auth, user.email)
    expect(await post(auth, '/two-factor/verify-backup-code', { code: user.backupCodes[0] }, pending.cookie)).toMatchObject({ status: 401, body: { code: 'INVALID_CODE' } })
    expect((await post(auth, '/two-factor/verify-backup-code', { code: fresh.body.backupCodes[0] }, pending.cookie)).status).toBe(200)
  })

  it('without two-factor: 400 TWO_FACTOR_NOT_ENABLED', async () => {
    const auth = twoFactorAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    expect(await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, cookie)).toMatchObject({
      status: 400,
      body: { code: 'TWO_FACTOR_NOT_ENABLED', message: 'Two-factor authentication is not enabled' },
    })
  })
})

describe('POST /two-factor/disable', () => {
  it('needs the password; then deletes the secret and codes, clears the flag and the trust cookie', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    expect(await post(auth, '/two-factor/disable', { password: 'nope nope' }, user.cookie)).toMatchObject({ status: 400, body: { code: 'INVALID_PASSWORD' } })
    expect(await rows(auth, 'twoFactor', user.userId)).toHaveLength(1)
    const disabled = await post(auth, '/two-factor/disable', { password: PASSWORD }, user.cookie)
    expect(disabled).toMatchObject({ status: 200, body: { status: true } })
    expect(disabled.setCookies.some((line) => /trust_device=;.*Max-Age=0/i.test(line))).toBe(true)
    expect(await rows(auth, 'twoFactor', user.userId)).toHaveLength(0)
    expect(await rows(auth, 'twoFactorBackupCode', user.userId)).toHaveLength(0)
    expect((await getSession(auth, user.cookie)).user.twoFactorEnabled).toBe(false)
    expect((await passwordStep(auth, user.email)).body.token).toEqual(expect.any(String))
    expect(await post(auth, '/two-factor/disable', { password: PASSWORD }, user.cookie)).toMatchObject({ status: 400, body: { code: 'TWO_FACTOR_NOT_ENABLED' } })
  })
})
