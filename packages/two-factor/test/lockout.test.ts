/**
 * The per-user lockout through `auth.handler`, on the fake clock
 * (docs/two-factor.md#attempts-and-lockout): lockouts that double each time
 * they engage again without a right code, up to 24 hours, and start over
 * after a right one; one budget for TOTP and emailed codes and another for
 * backup codes, so one lockout never shuts the owner out of every factor;
 * and the owner told through `onLockout` each time a lockout engages.
 */
import { describe, expect, it } from 'vitest'
import { resolveTwoFactorOptions } from '../src/options.js'
import { appCode, enroll, passwordStep, post, rows, twoFactorAuth, type Enrolled, type TwoFactorAuth } from './fixtures.js'

const WRONG_BACKUP = 'aaaaaaaaaa'

async function guessWrong(auth: TwoFactorAuth, cookie: string, path = '/two-factor/verify-totp', times = 5) {
  const statuses: number[] = []
  for (let attempt = 0; attempt < times; attempt++) {
    const code = path.endsWith('backup-code') ? WRONG_BACKUP : '000000'
    statuses.push((await post(auth, path, { code }, cookie)).status)
  }
  return statuses
}

async function stored(auth: TwoFactorAuth, user: Enrolled) {
  const [row] = await rows(auth, 'twoFactor', user.userId)
  return row as Record<string, unknown>
}

/** Seconds from now to the end of the stored lockout of a budget. */
async function lockSeconds(auth: TwoFactorAuth, user: Enrolled, field = 'lockedUntil'): Promise<number> {
  const until = (await stored(auth, user))[field]
  if (!(until instanceof Date)) throw new Error(`${field} is not set`)
  return (until.getTime() - auth.clock.now().getTime()) / 1000
}

describe('growing lockouts', () => {
  it('5 minutes, then doubling each time it engages again without a right code, capped at 24 hours', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    let pending = await passwordStep(auth, user.email)
    const lengths: number[] = []
    for (let round = 0; round < 11; round++) {
      expect(await guessWrong(auth, pending.cookie)).toEqual([401, 401, 401, 401, 401])
      const seconds = await lockSeconds(auth, user)
      lengths.push(seconds)
      // Locked until the very end, for the right code too (a fresh pending sign-in: one lasts 10 minutes).
      auth.clock.advance((seconds - 1) * 1000)
      pending = await passwordStep(auth, user.email)
      const code = appCode(user.secret, auth.clock.now())
      expect(await post(auth, '/two-factor/verify-totp', { code }, pending.cookie)).toMatchObject({ status: 429, body: { code: 'TOO_MANY_ATTEMPTS' } })
      auth.clock.advance(1000)
    }
    expect(lengths).toEqual([300, 600, 1200, 2400, 4800, 9600, 19_200, 38_400, 76_800, 86_400, 86_400])
    expect((await stored(auth, user)).lockouts).toBe(11)
  })

  it('a right code starts over: the next lockout is 5 minutes again', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    let pending = await passwordStep(auth, user.email)
    for (let round = 0; round < 3; round++) {
      await guessWrong(auth, pending.cookie)
      auth.clock.advance((await lockSeconds(auth, user)) * 1000)
      pending = await passwordStep(auth, user.email)
    }
    expect((await stored(auth, user)).lockouts).toBe(3)
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)).status).toBe(200)
    expect(await stored(auth, user)).toMatchObject({ failedAttempts: 0, lockedUntil: null, lockouts: 0 })
    auth.clock.advance(30_000)
    const again = await passwordStep(auth, user.email)
    await guessWrong(auth, again.cookie)
    expect(await lockSeconds(auth, user)).toBe(300)
  })

  it('takes its lengths from the options; a cap below the first lockout is refused', async () => {
    const auth = twoFactorAuth({ lockout: { maxAttempts: 2, duration: 60, maxDuration: 100 } })
    const user = await enroll(auth)
    let pending = await passwordStep(auth, user.email)
    const lengths: number[] = []
    for (let round = 0; round < 3; round++) {
      expect(await guessWrong(auth, pending.cookie, undefined, 2)).toEqual([401, 401])
      lengths.push(await lockSeconds(auth, user))
      auth.clock.advance(lengths[round] as number * 1000)
      pending = await passwordStep(auth, user.email)
    }
    expect(lengths).toEqual([60, 100, 100])
    expect(() => resolveTwoFactorOptions({ lockout: { duration: 600, maxDuration: 300 } })).toThrow('lockout.maxDuration must be at least lockout.duration')
    expect(resolveTwoFactorOptions({}).lockout).toEqual({ maxAttempts: 5, duration: 300, maxDuration: 86_400 })
  })
})

describe('separate budgets', () => {
  it('a lockout of TOTP codes leaves backup codes usable; emailed codes share the TOTP lockout', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth, undefined, { emailCodes: true })
    const pending = await passwordStep(auth, user.email)
    await guessWrong(auth, pending.cookie)
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)).status).toBe(429)
    expect(await post(auth, '/two-factor/send-otp', {}, pending.cookie)).toMatchObject({ status: 429, body: { code: 'TOO_MANY_ATTEMPTS' } })
    expect(await post(auth, '/two-factor/verify-otp', { code: '123456' }, pending.cookie)).toMatchObject({ status: 429 })
    const backup = await post(auth, '/two-factor/verify-backup-code', { code: user.backupCodes[0] }, pending.cookie)
    expect(backup).toMatchObject({ status: 200, body: { status: true, token: expect.any(String) } })
    // The backup code's success resets its own budget only: the TOTP lockout runs its course.
    expect(await stored(auth, user)).toMatchObject({ lockouts: 1, backupFailedAttempts: 0, backupLockouts: 0 })
  })

  it('a lockout of backup codes leaves TOTP codes usable, and is counted on its own', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const pending = await passwordStep(auth, user.email)
    expect(await guessWrong(auth, pending.cookie, '/two-factor/verify-backup-code')).toEqual([401, 401, 401, 401, 401])
    expect(await lockSeconds(auth, user, 'backupLockedUntil')).toBe(300)
    expect(await stored(auth, user)).toMatchObject({ failedAttempts: 0, lockedUntil: null, backupLockouts: 1 })
    expect((await post(auth, '/two-factor/verify-backup-code', { code: user.backupCodes[0] }, pending.cookie)).status).toBe(429)
    expect(await rows(auth, 'twoFactorBackupCode', user.userId)).toHaveLength(10)
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)).status).toBe(200)
  })

  it('wrong emailed codes count toward the TOTP budget', async () => {
    const auth = twoFactorAuth({ lockout: { maxAttempts: 4 } })
    const user = await enroll(auth, undefined, { emailCodes: true })
    const pending = await passwordStep(auth, user.email)
    await post(auth, '/two-factor/send-otp', {}, pending.cookie)
    const wrong = auth.lastOtp() === '000000' ? '111111' : '000000'
    for (let attempt = 0; attempt < 2; attempt++) expect((await post(auth, '/two-factor/verify-otp', { code: wrong }, pending.cookie)).status).toBe(401)
    await guessWrong(auth, pending.cookie, '/two-factor/verify-totp', 2)
    expect(await lockSeconds(auth, user)).toBe(300)
    expect(auth.lockouts.map((notice) => notice.factor)).toEqual(['totp'])
  })
})

describe('onLockout', () => {
  it('tells the owner once per lockout: the user, the budget and the end, never a code', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const pending = await passwordStep(auth, user.email)
    await guessWrong(auth, pending.cookie, '/two-factor/verify-totp', 4)
    expect(auth.lockouts).toHaveLength(0)
    await guessWrong(auth, pending.cookie, '/two-factor/verify-totp', 1)
    expect(auth.lockouts).toHaveLength(1)
    const [notice] = auth.lockouts
    expect(Object.keys(notice ?? {}).sort()).toEqual(['factor', 'until', 'user'])
    expect(notice).toMatchObject({ factor: 'totp', user: { id: user.userId, email: user.email }, until: new Date(auth.clock.now().getTime() + 300_000) })
    expect(JSON.stringify(notice)).not.toMatch(/secret|backupCode|codeHash/)
    // While locked, further tries are refused before they count: no second notice.
    await guessWrong(auth, pending.cookie)
    expect(auth.lockouts).toHaveLength(1)
    await guessWrong(auth, pending.cookie, '/two-factor/verify-backup-code')
    expect(auth.lockouts.map((entry) => entry.factor)).toEqual(['totp', 'backup-code'])
  })

  it('a failing callback is logged; the refusal and the lockout stand', async () => {
    const auth = twoFactorAuth({
      onLockout: () => {
        throw new Error('smtp down')
      },
    })
    const user = await enroll(auth)
    const pending = await passwordStep(auth, user.email)
    expect(await guessWrong(auth, pending.cookie)).toEqual([401, 401, 401, 401, 401])
    expect(await lockSeconds(auth, user)).toBe(300)
  })
})
