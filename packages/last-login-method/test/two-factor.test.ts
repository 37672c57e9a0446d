/**
 * Two-factor sign-ins: the first step answers `{ twoFactorRedirect: true }`
 * with no session cookie, so nothing is recorded yet, only a signed pending
 * method; the verify route that completes the sign-in records the FIRST
 * factor's method (cookie and user row), never "two-factor". A second step
 * without a pending method, or with a tampered one, changes nothing.
 */
import { describe, expect, it } from 'vitest'
import { appCode, enroll, post, secretOf, twoFactorAuth, type Enrolled, type TwoFactorAuth } from '../../two-factor/test/fixtures.js'
import { username } from '../../username/src/index.js'
import { lastLoginMethod } from '../src/plugin.js'
import { COOKIE, methodLine, methodSent, PASSWORD, standIns } from './fixtures.js'

const PENDING = 'gatehouse.last_login_pending'

function authWithTwoFactor() {
  return twoFactorAuth({}, {}, [lastLoginMethod({ storeInDatabase: true }), username(), standIns()])
}

/** The cookie a browser sends, with one cookie dropped or replaced. */
function withCookie(cookie: string, name: string, value: string | null): string {
  const others = cookie.split('; ').filter((pair) => pair !== '' && !pair.startsWith(`${name}=`))
  return [...others, ...(value === null ? [] : [`${name}=${value}`])].join('; ')
}

async function methodStored(auth: TwoFactorAuth, user: Enrolled) {
  const { db } = await auth.$context
  return (await db.findOne<Record<string, unknown>>({ model: 'user', where: { field: 'id', value: user.userId } }))?.lastLoginMethod
}

describe('a two-factor sign-in', () => {
  it('records nothing at the first step; the second records the first factor: email', async () => {
    const auth = authWithTwoFactor()
    const user = await enroll(auth)
    expect(methodSent(user.cookie)).toBe('email')
    // The browser last signed in some other way: that stays until the sign-in completes.
    const browser = withCookie('', COOKIE, 'passkey')
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: user.userId }, update: { lastLoginMethod: 'passkey' } })

    const pending = await post(auth, '/sign-in/email', { email: user.email, password: PASSWORD }, browser)
    expect(pending.body).toEqual({ twoFactorRedirect: true })
    expect(methodLine(pending.setCookies)).toBeUndefined()
    expect(methodSent(pending.cookie)).toBe('passkey')
    expect(pending.setCookies.find((line) => line.startsWith(`${PENDING}=`))).toMatch(/^gatehouse\.last_login_pending=email\.[^;]+; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax$/)
    expect(await methodStored(auth, user)).toBe('passkey')

    const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)
    expect(verified.status).toBe(200)
    expect(methodLine(verified.setCookies)).toBe(`${COOKIE}=email; Max-Age=2592000; Path=/; SameSite=Lax`)
    expect(verified.setCookies.find((line) => line.startsWith(`${PENDING}=`))).toMatch(/Max-Age=0/)
    expect(await methodStored(auth, user)).toBe('email')
  })

  it('a username first factor is remembered as username, through a backup code too', async () => {
    const auth = authWithTwoFactor()
    const user = await enroll(auth)
    expect((await post(auth, '/update-user', { username: 'ada' }, user.cookie)).status).toBe(200)

    const pending = await post(auth, '/sign-in/username', { username: 'ada', password: PASSWORD })
    expect(pending.body).toEqual({ twoFactorRedirect: true })
    expect(methodLine(pending.setCookies)).toBeUndefined()
    const verified = await post(auth, '/two-factor/verify-backup-code', { code: user.backupCodes[0] }, pending.cookie)
    expect(verified.status).toBe(200)
    expect(methodSent(verified.cookie)).toBe('username')
    expect(await methodStored(auth, user)).toBe('username')
  })

  it("another plugin's first factor (a phone number) is remembered as that", async () => {
    const auth = authWithTwoFactor()
    const user = await enroll(auth)
    const pending = await post(auth, '/sign-in/phone-number', { email: user.email })
    expect(pending.body).toEqual({ twoFactorRedirect: true })
    const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)
    expect(verified.status).toBe(200)
    expect(methodSent(verified.cookie)).toBe('phone-number')
    expect(await methodStored(auth, user)).toBe('phone-number')
  })

  it('a wrong code records nothing and keeps the pending method for the next try', async () => {
    const auth = authWithTwoFactor()
    const user = await enroll(auth)
    const pending = await post(auth, '/sign-in/email', { email: user.email, password: PASSWORD }, withCookie('', COOKIE, 'github'))
    const wrong = await post(auth, '/two-factor/verify-totp', { code: '000000' }, pending.cookie)
    expect(wrong.status).toBe(401)
    expect(methodLine(wrong.setCookies)).toBeUndefined()
    expect(wrong.setCookies.find((line) => line.startsWith(`${PENDING}=`))).toBeUndefined()
    const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, wrong.cookie)
    expect(methodSent(verified.cookie)).toBe('email')
  })

  it('a second step without a pending method, or with a tampered one, leaves the cookie and the field as they were', async () => {
    const auth = authWithTwoFactor()
    const user = await enroll(auth)
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: user.userId }, update: { lastLoginMethod: 'github' } })

    for (const pendingValue of [null, 'username.forged-signature']) {
      auth.clock.advance(30_000)
      const pending = await post(auth, '/sign-in/email', { email: user.email, password: PASSWORD }, withCookie('', COOKIE, 'github'))
      const cookie = withCookie(pending.cookie, PENDING, pendingValue)
      const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, cookie)
      expect(verified.status).toBe(200)
      expect(methodLine(verified.setCookies)).toBeUndefined()
      expect(methodSent(verified.cookie)).toBe('github')
      expect(await methodStored(auth, user)).toBe('github')
    }
  })

  it('confirming the enrolment on a signed-in session (verify-totp, no sign-in) records nothing', async () => {
    const auth = authWithTwoFactor()
    const created = await post(auth, '/sign-up/email', { email: 'grace@example.com', name: 'Grace', password: PASSWORD })
    const enabled = await post(auth, '/two-factor/enable', { password: PASSWORD }, created.cookie)
    const confirmed = await post(auth, '/two-factor/verify-totp', { code: appCode(secretOf(enabled.body.totpURI), auth.clock.now()) }, enabled.cookie)
    expect(confirmed.status).toBe(200)
    expect(methodLine(confirmed.setCookies)).toBeUndefined()
    expect(methodSent(confirmed.cookie)).toBe('email')
  })
})
