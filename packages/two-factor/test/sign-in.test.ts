/**
 * Signing in with two-factor on, through `auth.handler`: the password step
 * answers `twoFactorRedirect` with only the pending cookie (no session row,
 * no session cookie, no cookie-cache entry); verify-totp then creates the
 * session with the remember-me choice made at sign-in. Replays, tampered or
 * expired pending cookies, the per-user lockout and trusted devices.
 */
import { describe, expect, it } from 'vitest'
import { appCode, cookieNamed, enroll, getSession, PASSWORD, passwordStep, post, rows, twoFactorAuth } from './fixtures.js'

const cached = { session: { cookieCache: { enabled: true, maxAge: 300 } } }

describe('the password step', () => {
  it('answers twoFactorRedirect with a signed pending cookie and nothing else: no session row, cookie or cache entry', async () => {
    const auth = twoFactorAuth({}, cached)
    const user = await enroll(auth)
    const before = (await rows(auth, 'session', user.userId)).length
    const answer = await passwordStep(auth, user.email)
    expect(answer).toMatchObject({ status: 200, body: { twoFactorRedirect: true } })
    expect(Object.keys(answer.body)).toEqual(['twoFactorRedirect'])
    expect(answer.setCookies).toHaveLength(1)
    expect(answer.setCookies[0]).toMatch(/^gatehouse\.two_factor=[^;]+\.[^;]+; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax/)
    expect(cookieNamed(answer.setCookies, 'session_token')).toBeUndefined()
    expect(cookieNamed(answer.setCookies, 'session_data')).toBeUndefined()
    expect(await rows(auth, 'session', user.userId)).toHaveLength(before)
    expect(await getSession(auth, answer.cookie)).toBeNull()
  })

  it('a wrong password is refused as before, without a pending cookie', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const answer = await post(auth, '/sign-in/email', { email: user.email, password: 'wrong password' })
    expect(answer).toMatchObject({ status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD' } })
    expect(answer.setCookies).toHaveLength(0)
  })

  it('the server-side api gets the same answer as a Response', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const answer = await auth.api.signInEmail({ body: { email: user.email, password: PASSWORD } })
    expect(answer).toBeInstanceOf(Response)
    expect(await (answer as Response).json()).toEqual({ twoFactorRedirect: true })
  })
})

describe('POST /two-factor/verify-totp during a sign-in', () => {
  it('creates the session, sets its cookies (cache included), clears the pending cookie', async () => {
    const auth = twoFactorAuth({}, cached)
    const user = await enroll(auth)
    const before = (await rows(auth, 'session', user.userId)).length
    const pending = await passwordStep(auth, user.email)
    const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)
    expect(verified).toMatchObject({ status: 200, body: { status: true, token: expect.any(String), user: { id: user.userId, email: user.email } } })
    expect(cookieNamed(verified.setCookies, 'session_token')).toMatch(/Max-Age=\d+/)
    expect(cookieNamed(verified.setCookies, 'session_data')).toBeDefined()
    expect(cookieNamed(verified.setCookies, 'two_factor')).toMatch(/Max-Age=0/)
    expect(cookieNamed(verified.setCookies, 'trust_device')).toBeUndefined()
    expect(await rows(auth, 'session', user.userId)).toHaveLength(before + 1)
    expect((await getSession(auth, verified.cookie)).user).toMatchObject({ id: user.userId, twoFactorEnabled: true })
  })

  it('keeps rememberMe: false from the password step (browser-session cookie)', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const pending = await passwordStep(auth, user.email, { rememberMe: false })
    const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)
    expect(verified.status).toBe(200)
    expect(cookieNamed(verified.setCookies, 'session_token')).not.toMatch(/Max-Age/)
    expect(cookieNamed(verified.setCookies, 'dont_remember')).toBeDefined()
  })

  it('accepts a code once: the same code in a second sign-in is refused', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const code = appCode(user.secret, auth.clock.now())
    const first = await passwordStep(auth, user.email)
    expect((await post(auth, '/two-factor/verify-totp', { code }, first.cookie)).status).toBe(200)
    const second = await passwordStep(auth, user.email)
    expect(await post(auth, '/two-factor/verify-totp', { code }, second.cookie)).toMatchObject({ status: 401, body: { code: 'INVALID_CODE' } })
    // An earlier step, still inside the window, is refused as well.
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now(), -1) }, second.cookie)).status).toBe(401)
    auth.clock.advance(30_000)
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, second.cookie)).status).toBe(200)
  })

  it('without a pending cookie or session: 401; tampered or expired pending cookies likewise', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const code = appCode(user.secret, auth.clock.now())
    expect(await post(auth, '/two-factor/verify-totp', { code })).toMatchObject({
      status: 401,
      body: { code: 'NO_PENDING_SIGN_IN', message: 'No pending two-factor sign-in' },
    })
    const pending = await passwordStep(auth, user.email)
    const tampered = pending.cookie.replace(/two_factor=([^.]+)\./, (_m, value: string) => `two_factor=${value.startsWith('A') ? 'B' : 'A'}${value.slice(1)}.`)
    expect((await post(auth, '/two-factor/verify-totp', { code }, tampered)).body.code).toBe('NO_PENDING_SIGN_IN')
    auth.clock.advance(601_000)
    const late = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)
    expect(late).toMatchObject({ status: 401, body: { code: 'NO_PENDING_SIGN_IN' } })
  })

  it('locks the user after 5 wrong codes, whatever the address; the right code then gets 429 until the lockout ends', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth, undefined, { emailCodes: true })
    const pending = await passwordStep(auth, user.email)
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await post(auth, '/two-factor/verify-totp', { code: '000000' }, pending.cookie, { 'x-forwarded-for': `203.0.113.${attempt}` })
      expect(wrong).toMatchObject({ status: 401, body: { code: 'INVALID_CODE' } })
    }
    const [row] = await rows(auth, 'twoFactor', user.userId)
    expect(row?.lockedUntil).toEqual(new Date(auth.clock.now().getTime() + 300_000))
    const locked = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)
    expect(locked).toMatchObject({ status: 429, body: { code: 'TOO_MANY_ATTEMPTS', message: 'Too many attempts. Try again later' } })
    // Mailed codes share the lock of TOTP codes (lockout.test.ts has the separate budget of backup codes).
    expect((await post(auth, '/two-factor/send-otp', {}, pending.cookie)).status).toBe(429)
    auth.clock.advance(300_000)
    const again = await passwordStep(auth, user.email)
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, again.cookie)).status).toBe(200)
    expect((await rows(auth, 'twoFactor', user.userId))[0]).toMatchObject({ failedAttempts: 0, lockedUntil: null })
  })

  it('a right code resets the failure count', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const pending = await passwordStep(auth, user.email)
    for (let attempt = 0; attempt < 4; attempt++) await post(auth, '/two-factor/verify-totp', { code: '000000' }, pending.cookie)
    expect((await rows(auth, 'twoFactor', user.userId))[0]?.failedAttempts).toBe(4)
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)).status).toBe(200)
    expect((await rows(auth, 'twoFactor', user.userId))[0]?.failedAttempts).toBe(0)
  })
})

describe('trusted devices', () => {
  async function trusted(auth: ReturnType<typeof twoFactorAuth>) {
    const user = await enroll(auth)
    const pending = await passwordStep(auth, user.email)
    const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()), trustDevice: true }, pending.cookie)
    const line = cookieNamed(verified.setCookies, 'trust_device')
    expect(line).toMatch(/Max-Age=2592000/)
    const trust = verified.cookie.split('; ').find((pair) => pair.startsWith('gatehouse.trust_device=')) as string
    return { user, trust }
  }

  it('a trust cookie skips the second step for 30 days, for its own user only', async () => {
    const auth = twoFactorAuth()
    const { user, trust } = await trusted(auth)
    const direct = await passwordStep(auth, user.email, {}, trust)
    expect(direct).toMatchObject({ status: 200, body: { token: expect.any(String), user: { id: user.userId } } })
    const other = await enroll(auth, 'grace@example.com')
    expect((await passwordStep(auth, other.email, {}, trust)).body).toEqual({ twoFactorRedirect: true })
    auth.clock.advance(30 * 24 * 3600 * 1000)
    expect((await passwordStep(auth, user.email, {}, trust)).body).toEqual({ twoFactorRedirect: true })
  })

  it('a password change revokes it', async () => {
    const auth = twoFactorAuth()
    const { user, trust } = await trusted(auth)
    const changed = await post(auth, '/change-password', { currentPassword: PASSWORD, newPassword: 'another good password' }, user.cookie)
    expect(changed.status).toBe(200)
    const answer = await post(auth, '/sign-in/email', { email: user.email, password: 'another good password' }, trust)
    expect(answer.body).toEqual({ twoFactorRedirect: true })
  })

  it('disabling two-factor revokes it, also after two-factor is turned on again', async () => {
    const auth = twoFactorAuth()
    const { user, trust } = await trusted(auth)
    expect((await post(auth, '/two-factor/disable', { password: PASSWORD }, user.cookie)).status).toBe(200)
    const enabled = await post(auth, '/two-factor/enable', { password: PASSWORD }, user.cookie)
    const { secretOf } = await import('./fixtures.js')
    expect((await post(auth, '/two-factor/verify-totp', { code: appCode(secretOf(enabled.body.totpURI), auth.clock.now()) }, user.cookie)).status).toBe(200)
    expect((await passwordStep(auth, user.email, {}, trust)).body).toEqual({ twoFactorRedirect: true })
  })

  it('a forged trust cookie (unsigned value) is ignored', async () => {
    const auth = twoFactorAuth()
    const { user, trust } = await trusted(auth)
    const forged = trust.replace(/\.[^.]+$/, '.AAAA')
    expect((await passwordStep(auth, user.email, {}, forged)).body).toEqual({ twoFactorRedirect: true })
  })
})

describe('pending sign-ins end with the account’s credentials', () => {
  it('a password reset or sign-out everywhere between the password step and the code ends the pending sign-in', async () => {
    for (const revoke of ['reset', 'revoke-sessions'] as const) {
      const auth = twoFactorAuth()
      const user = await enroll(auth)
      const pending = await passwordStep(auth, user.email)
      expect(pending.body).toEqual({ twoFactorRedirect: true })
      if (revoke === 'reset') {
        await post(auth, '/request-password-reset', { email: user.email })
        const token = auth.mailbox.last('reset-password')?.token as string
        expect((await post(auth, '/reset-password', { token, newPassword: 'a brand new password' })).status).toBe(200)
      } else {
        expect((await post(auth, '/revoke-sessions', {}, user.cookie)).status).toBe(200)
      }
      const before = (await rows(auth, 'session', user.userId)).length
      const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)
      expect(verified.status).toBe(401)
      expect(verified.body.code).toBe('NO_PENDING_SIGN_IN')
      expect(cookieNamed(verified.setCookies, 'session_token')).toBeUndefined()
      expect(await rows(auth, 'session', user.userId)).toHaveLength(before)
    }
  })
})

describe('trust revocation by a password reset, and rate limits', () => {
  it('a password reset revokes every trusted device', async () => {
    const auth = twoFactorAuth()
    const user = await enroll(auth)
    const pending = await passwordStep(auth, user.email)
    const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()), trustDevice: true }, pending.cookie)
    const trust = verified.cookie.split('; ').find((pair) => pair.startsWith('gatehouse.trust_device=')) as string
    expect((await passwordStep(auth, user.email, {}, trust)).body.token).toEqual(expect.any(String))
    expect((await post(auth, '/request-password-reset', { email: user.email, redirectTo: '/reset' })).status).toBe(200)
    const token = auth.mailbox.last('reset-password')?.token as string
    expect((await post(auth, '/reset-password', { token, newPassword: 'a brand new password' })).status).toBe(200)
    const answer = await post(auth, '/sign-in/email', { email: user.email, password: 'a brand new password' }, trust)
    expect(answer.body).toEqual({ twoFactorRedirect: true })
  })

  it('the verify routes allow 10 requests per minute and address, on top of the per-user lockout', async () => {
    const auth = twoFactorAuth({ lockout: { maxAttempts: 100 } }, { rateLimit: { enabled: true } })
    const headers = { 'x-forwarded-for': '198.51.100.7' }
    const statuses: number[] = []
    for (let attempt = 0; attempt < 11; attempt++) statuses.push((await post(auth, '/two-factor/verify-totp', { code: '000000' }, '', headers)).status)
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true)
    expect(statuses[10]).toBe(429)
    const sends: number[] = []
    for (let attempt = 0; attempt < 4; attempt++) sends.push((await post(auth, '/two-factor/send-otp', {}, '', headers)).status)
    expect(sends).toEqual([401, 401, 401, 429])
  })
})
