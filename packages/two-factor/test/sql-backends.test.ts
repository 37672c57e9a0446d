/**
 * The flows on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured (there parallel requests run on pooled connections and really
 * interleave, and the row lock is a real SELECT … FOR UPDATE). Twenty
 * parallel verifications of one TOTP code, one backup code or one mailed
 * code make exactly one session; the lockout counts every wrong code and
 * stores its escalation; twenty parallel settings calls proving the second
 * factor with one code get one answer (docs/two-factor.md#proof-of-the-second-factor).
 * Each backend gets its own schema or database, dropped after.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { appCode, enroll, getSession, PASSWORD, passwordStep, post, rows, twoFactorAuth, type TwoFactorAuth } from './fixtures.js'

const twenty = <T>(fn: () => Promise<T>) => Promise.all(Array.from({ length: 20 }, fn))

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`two-factor on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: TwoFactorAuth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = twoFactorAuth({}, { database: backend.factory })
      expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    function ready(): TwoFactorAuth {
      if (!auth) throw new Error('backend not ready')
      return auth
    }

    it('enable, confirm, sign in with a TOTP code: the stored rows round-trip', async () => {
      const auth = ready()
      const user = await enroll(auth, `flow-${dialect}@example.com`)
      const [row] = await rows(auth, 'twoFactor', user.userId)
      expect(row).toMatchObject({ failedAttempts: 0, lockedUntil: null, lastUsedStep: expect.any(Number) })
      const pending = await passwordStep(auth, user.email)
      expect(pending.body).toEqual({ twoFactorRedirect: true })
      const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)
      expect(verified.status).toBe(200)
      expect((await getSession(auth, verified.cookie)).user).toMatchObject({ id: user.userId, twoFactorEnabled: true })
      // The session stored when it passed the second factor, and with which code: the password alone mints codes, for 10 minutes.
      const stamped = (await rows(auth, 'session', user.userId)).filter((row) => row.twoFactorMethod === 'totp' && row.amr === 'pwd otp mfa')
      expect(stamped.map((row) => row.twoFactorVerifiedAt)).toContainEqual(auth.clock.now())
      expect((await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, verified.cookie)).status).toBe(200)
      auth.clock.advance(600_000)
      expect(await post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD }, verified.cookie)).toMatchObject({
        status: 403,
        body: { code: 'TWO_FACTOR_PROOF_REQUIRED' },
      })
    })

    it('twenty parallel verifications of one TOTP code: exactly one session', async () => {
      const auth = ready()
      const user = await enroll(auth, `totp-race-${dialect}@example.com`)
      const before = (await rows(auth, 'session', user.userId)).length
      const pending = await passwordStep(auth, user.email)
      const code = appCode(user.secret, auth.clock.now())
      const results = await twenty(() => post(auth, '/two-factor/verify-totp', { code }, pending.cookie))
      expect(results.filter((result) => result.status === 200)).toHaveLength(1)
      expect(results.filter((result) => result.status >= 500)).toHaveLength(0)
      expect(await rows(auth, 'session', user.userId)).toHaveLength(before + 1)
    })

    it('twenty parallel uses of one backup code: exactly one session, the code consumed', async () => {
      const auth = ready()
      const user = await enroll(auth, `backup-race-${dialect}@example.com`)
      const pending = await passwordStep(auth, user.email)
      const results = await twenty(() => post(auth, '/two-factor/verify-backup-code', { code: user.backupCodes[0] }, pending.cookie))
      expect(results.filter((result) => result.status === 200)).toHaveLength(1)
      expect(results.filter((result) => result.status >= 500)).toHaveLength(0)
      expect(await rows(auth, 'twoFactorBackupCode', user.userId)).toHaveLength(9)
    })

    it('twenty parallel uses of one mailed code: exactly one session', async () => {
      const auth = ready()
      const user = await enroll(auth, `otp-race-${dialect}@example.com`, { emailCodes: true })
      const pending = await passwordStep(auth, user.email)
      await post(auth, '/two-factor/send-otp', {}, pending.cookie)
      const results = await twenty(() => post(auth, '/two-factor/verify-otp', { code: auth.lastOtp() }, pending.cookie))
      expect(results.filter((result) => result.status === 200)).toHaveLength(1)
      expect(results.filter((result) => result.status >= 500)).toHaveLength(0)
    })

    it('parallel enables of one user: one setup, never a 500', async () => {
      const auth = ready()
      const { signUp } = await import('../../core/test/accounts.js')
      const { cookie, body } = await signUp(auth, { email: `enable-race-${dialect}@example.com` })
      const results = await Promise.all(Array.from({ length: 5 }, () => post(auth, '/two-factor/enable', { password: PASSWORD }, cookie)))
      expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200])
      expect(await rows(auth, 'twoFactor', body.user.id)).toHaveLength(1)
      expect(await rows(auth, 'twoFactorBackupCode', body.user.id)).toHaveLength(10)
    })

    it('twenty parallel wrong codes: every one counted, the user locked', async () => {
      const auth = ready()
      const user = await enroll(auth, `lock-${dialect}@example.com`)
      const pending = await passwordStep(auth, user.email)
      const results = await twenty(() => post(auth, '/two-factor/verify-totp', { code: '000000' }, pending.cookie))
      expect(results.filter((result) => result.status === 401)).toHaveLength(5)
      expect(results.filter((result) => result.status === 429)).toHaveLength(15)
      const [row] = await rows(auth, 'twoFactor', user.userId)
      expect(row?.lockedUntil).toBeInstanceOf(Date)
      expect(row).toMatchObject({ failedAttempts: 0, lockouts: 1, backupFailedAttempts: 0, backupLockouts: 0 })
      expect(auth.lockouts.filter((notice) => notice.user.id === user.userId)).toHaveLength(1)
    })

    it('twenty parallel new backup-code sets proven with one TOTP code: one answer', async () => {
      const auth = ready()
      const user = await enroll(auth, `proof-totp-${dialect}@example.com`)
      // Past the 10 minutes in which the confirming session counts as proof.
      auth.clock.advance(600_000)
      const code = appCode(user.secret, auth.clock.now())
      const results = await twenty(() => post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD, code }, user.cookie))
      expect(results.filter((result) => result.status === 200)).toHaveLength(1)
      expect(results.filter((result) => result.status >= 500)).toHaveLength(0)
    })

    it('twenty parallel new backup-code sets proven with one backup code: one set', async () => {
      const auth = ready()
      const user = await enroll(auth, `proof-backup-${dialect}@example.com`)
      auth.clock.advance(600_000)
      const results = await twenty(() => post(auth, '/two-factor/generate-backup-codes', { password: PASSWORD, code: user.backupCodes[0] }, user.cookie))
      const won = results.filter((result) => result.status === 200)
      expect(won).toHaveLength(1)
      expect(results.filter((result) => result.status >= 500)).toHaveLength(0)
      expect(await rows(auth, 'twoFactorBackupCode', user.userId)).toHaveLength(10)
      // The losers were wrong codes: backup codes are locked for 5 minutes; then one of the winner's codes signs in.
      expect((await rows(auth, 'twoFactor', user.userId))[0]).toMatchObject({ backupLockouts: 1, lockouts: 0 })
      auth.clock.advance(300_000)
      const pending = await passwordStep(auth, user.email)
      expect((await post(auth, '/two-factor/verify-backup-code', { code: won[0]?.body.backupCodes[0] }, pending.cookie)).status).toBe(200)
    })
  })
}
