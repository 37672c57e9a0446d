/**
 * Proof of the second factor on the settings routes that read the secret,
 * mint backup codes or turn two-factor off, through `auth.handler`
 * (docs/two-factor.md#proof-of-the-second-factor): the password and either a
 * current code in `code` (TOTP or backup code, checked like any code) or a
 * session that passed the second factor in the last 10 minutes. The password
 * alone on an older session, or on a session that never passed it, gets 403.
 */
import { describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import {
  appCode,
  cookieNamed,
  enroll,
  getSession,
  PASSWORD,
  passwordStep,
  post,
  rows,
  secretOf,
  twoFactorAuth,
  type Enrolled,
  type TwoFactorAuth,
} from './fixtures.js'

const PROOF_REQUIRED = {
  status: 403,
  body: { code: 'TWO_FACTOR_PROOF_REQUIRED', message: 'A code from your authenticator app or a backup code is required' },
}
const TEN_MINUTES = 600_000
const INVALID_CODE = { status: 401, body: { code: 'INVALID_CODE' } }

/** An enrolled user whose session confirmed the setup more than 10 minutes ago. */
async function staleSession(auth: TwoFactorAuth): Promise<Enrolled> {
  const user = await enroll(auth)
  auth.clock.advance(TEN_MINUTES)
  return user
}

async function backupHashes(auth: TwoFactorAuth, userId: string) {
  return (await rows(auth, 'twoFactorBackupCode', userId)).map((row) => row.codeHash).sort()
}

/** A sign-in through the second step: the session cookie of the new browser. */
async function signInWithCode(auth: TwoFactorAuth, user: Enrolled, path = '/two-factor/verify-totp', code?: string) {
  const pending = await passwordStep(auth, user.email)
  const verified = await post(auth, path, { code: code ?? appCode(user.secret, auth.clock.now()) }, pending.cookie)
  expect(verified.status).toBe(200)
  return verified.cookie
}

describe('the password alone on an older session', () => {
  it('mints no backup codes, turns nothing off and chooses no emailed codes: 403, rows untouched', async () => {
    const auth = twoFactorAuth()
    const user = await staleSession(auth)
    const before = await backupHashes(auth, user.userId)
    expect(await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, user.cookie)).toMatchObject(PROOF_REQUIRED)
    expect(await post(auth, '/two-factor/disable', { password: PASSWORD }, user.cookie)).toMatchObject(PROOF_REQUIRED)
    expect(await post(auth, '/two-factor/enable-otp', { password: PASSWORD }, user.cookie)).toMatchObject(PROOF_REQUIRED)
    // An empty code is no code.
    expect(await post(auth, '/two-factor/disable', { password: PASSWORD, code: ' ' }, user.cookie)).toMatchObject(PROOF_REQUIRED)
    expect(await backupHashes(auth, user.userId)).toEqual(before)
    expect(await rows(auth, 'twoFactor', user.userId)).toMatchObject([{ otpEnabled: false }])
    expect((await getSession(auth, user.cookie)).user.twoFactorEnabled).toBe(true)
  })

  it('a session that skipped the second step (a trusted device) is no proof either', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const pending = await passwordStep(auth, user.email)
    const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()), trustDevice: true }, pending.cookie)
    const trust = verified.cookie.split('; ').find((pair) => pair.startsWith('gatehouse.trust_device=')) as string
    const direct = await passwordStep(auth, user.email, {}, trust)
    expect(direct.body.token).toEqual(expect.any(String))
    expect(await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, direct.cookie)).toMatchObject(PROOF_REQUIRED)
  })

  it('the password is checked first: a wrong one with a right code uses nothing up', async () => {
    const auth = twoFactorAuth()
    const user = await staleSession(auth)
    const answer = await post(auth, '/two-factor/generate-backup-codes', { password: 'wrong password', code: user.backupCodes[0] }, user.cookie)
    expect(answer).toMatchObject({ status: 400, body: { code: 'INVALID_PASSWORD' } })
    expect(await rows(auth, 'twoFactorBackupCode', user.userId)).toHaveLength(10)
  })
})

describe('a code in the body', () => {
  it('a current TOTP code is proof; its time step is then used up', async () => {
    const auth = twoFactorAuth()
    const user = await staleSession(auth)
    const code = appCode(user.secret, auth.clock.now())
    const answer = await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD, code }, user.cookie)
    expect(answer).toMatchObject({ status: 200, body: { status: true } })
    // Given a code, the code decides, even on a session that just became proof: a replay is a wrong code.
    expect(await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD, code }, user.cookie)).toMatchObject(INVALID_CODE)
    const pending = await passwordStep(auth, user.email)
    expect((await post(auth, '/two-factor/verify-totp', { code }, pending.cookie)).status).toBe(401)
  })

  it('a backup code is proof, and is consumed', async () => {
    const auth = twoFactorAuth()
    const user = await staleSession(auth)
    const code = user.backupCodes[2] as string
    expect((await post(auth, '/two-factor/enable-otp', { password: PASSWORD, code: code.toUpperCase() }, user.cookie)).status).toBe(200)
    expect(await rows(auth, 'twoFactorBackupCode', user.userId)).toHaveLength(9)
    auth.clock.advance(TEN_MINUTES)
    expect(await post(auth, '/two-factor/disable', { password: PASSWORD, code }, user.cookie)).toMatchObject(INVALID_CODE)
    const disabled = await post(auth, '/two-factor/disable', { password: PASSWORD, code: user.backupCodes[3] }, user.cookie)
    expect(disabled).toMatchObject({ status: 200, body: { status: true } })
    expect(await rows(auth, 'twoFactor', user.userId)).toHaveLength(0)
  })

  it('generate-backup-codes with a code replaces the set', async () => {
    const auth = twoFactorAuth()
    const user = await staleSession(auth)
    const fresh = await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD, code: appCode(user.secret, auth.clock.now()) }, user.cookie)
    expect(fresh).toMatchObject({ status: 200, body: { status: true } })
    expect(fresh.body.backupCodes).toHaveLength(10)
    expect(fresh.body.backupCodes).not.toEqual(user.backupCodes)
  })

  it('wrong codes are refused and count toward the lockout of their budget', async () => {
    const auth = twoFactorAuth()
    const user = await staleSession(auth)
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await post(auth, '/two-factor/disable', { password: PASSWORD, code: '000000' }, user.cookie)).toMatchObject(INVALID_CODE)
    }
    const locked = await post(auth, '/two-factor/disable', { password: PASSWORD, code: appCode(user.secret, auth.clock.now()) }, user.cookie)
    expect(locked).toMatchObject({ status: 429, body: { code: 'TOO_MANY_ATTEMPTS' } })
    expect(auth.lockouts.map((notice) => notice.factor)).toEqual(['totp'])
    expect((await getSession(auth, user.cookie)).user.twoFactorEnabled).toBe(true)
    // Backup codes keep their own budget.
    expect((await post(auth, '/two-factor/disable', { password: PASSWORD, code: user.backupCodes[0] }, user.cookie)).status).toBe(200)
  })
})

describe('a session that passed the second factor', () => {
  it('right after the second step of a sign-in, {password} alone works for 10 minutes', async () => {
    const auth = twoFactorAuth()
    const user = await staleSession(auth)
    const cookie = await signInWithCode(auth, user)
    expect((await post(auth, '/two-factor/enable-otp', { password: PASSWORD }, cookie)).status).toBe(200)
    expect((await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, cookie)).status).toBe(200)
    auth.clock.advance(TEN_MINUTES - 1000)
    expect((await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, cookie)).status).toBe(200)
    auth.clock.advance(1000)
    expect(await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, cookie)).toMatchObject(PROOF_REQUIRED)
  })

  it('a backup code passed the second step: proof, as a TOTP code is', async () => {
    const auth = twoFactorAuth()
    const user = await staleSession(auth)
    const byBackup = await signInWithCode(auth, user, '/two-factor/verify-backup-code', user.backupCodes[0])
    expect((await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, byBackup)).status).toBe(200)
  })

  it('a code checked while signed in (a step-up) makes the session proof again', async () => {
    const auth = twoFactorAuth()
    const user = await staleSession(auth)
    expect(await post(auth, '/two-factor/disable', { password: PASSWORD }, user.cookie)).toMatchObject(PROOF_REQUIRED)
    const stepUp = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, user.cookie)
    expect(stepUp).toMatchObject({ status: 200, body: { status: true, token: null } })
    expect((await post(auth, '/two-factor/disable', { password: PASSWORD }, user.cookie)).status).toBe(200)
  })

  it('is proof for that session only, and is never shown in get-session', async () => {
    const auth = twoFactorAuth()
    const user = await staleSession(auth)
    const fresh = await signInWithCode(auth, user)
    expect(await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, user.cookie)).toMatchObject(PROOF_REQUIRED)
    const session = await getSession(auth, fresh)
    expect(session.session).not.toHaveProperty('twoFactorVerifiedAt')
    expect(session.session).not.toHaveProperty('twoFactorMethod')
    const stored = await rows(auth, 'session', user.userId)
    expect(stored.filter((row) => row.twoFactorVerifiedAt instanceof Date)).toHaveLength(2)
  })
})

describe('during a setup not yet confirmed', () => {
  it('the password alone, as for enable: nothing is on to prove', async () => {
    const auth = twoFactorAuth()
    const { cookie, body } = await signUp(auth, { email: 'ada@example.com' })
    const enabled = await post(auth, '/two-factor/enable', { password: PASSWORD }, cookie)
    auth.clock.advance(2 * TEN_MINUTES)
    const uri = await post(auth, '/two-factor/get-totp-uri', { password: PASSWORD }, cookie)
    expect(uri.status).toBe(200)
    expect(uri.body.totpURI).toBe(enabled.body.totpURI)
    expect((await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, cookie)).status).toBe(200)
    // Confirming turns it on, and counts as proof for this session for 10 minutes.
    const confirmed = await post(auth, '/two-factor/verify-totp', { code: appCode(secretOf(enabled.body.totpURI), auth.clock.now()) }, cookie)
    expect(confirmed.status).toBe(200)
    expect((await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, cookie)).status).toBe(200)
    auth.clock.advance(TEN_MINUTES)
    expect(await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, cookie)).toMatchObject(PROOF_REQUIRED)
    expect(body.user.id).toBe(confirmed.body.user.id)
  })
})

describe('races (in-memory adapter)', () => {
  it('twenty parallel new backup-code sets with one TOTP code: one answer', async () => {
    const auth = twoFactorAuth()
    const user = await staleSession(auth)
    const code = appCode(user.secret, auth.clock.now())
    const results = await Promise.all(
      Array.from({ length: 20 }, () => post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD, code }, user.cookie)),
    )
    expect(results.filter((result) => result.status === 200)).toHaveLength(1)
    expect(results.every((result) => [200, 401, 429].includes(result.status))).toBe(true)
    expect(cookieNamed(results[0]?.setCookies ?? [], 'session_token')).toBeUndefined()
  })
})
