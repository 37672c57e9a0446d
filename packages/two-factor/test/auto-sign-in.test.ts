/**
 * The auto sign-in of a verification link (`autoSignInAfterVerification`)
 * for a user with two-factor on, through `auth.handler`
 * (docs/two-factor.md#which-sign-ins-are-challenged): the link proves the
 * mailbox, not the second factor, so it only verifies the address (the
 * plugin's `mayAutoSignIn` refuses); the user then signs in with the
 * password and gets the second step. Users without two-factor are still
 * signed in by the link. Both the GET of the link and the POST of its
 * confirmation page.
 */
import { describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { request } from '../../core/test/helpers.js'
import { cookieNamed, enroll, getSession, passwordStep, post, rows, twoFactorAuth, type TwoFactorAuth } from './fixtures.js'

const autoSignIn = { emailVerification: { autoSignInAfterVerification: true } }

/** The token of a fresh verification mail to `email`. */
async function verificationToken(auth: TwoFactorAuth, email: string): Promise<string> {
  expect((await post(auth, '/send-verification-email', { email })).status).toBe(200)
  return auth.mailbox.last('verify-email')?.token as string
}

async function openLink(auth: TwoFactorAuth, token: string, cookie = '') {
  const query = new URLSearchParams({ token, callbackURL: '/welcome' })
  return auth.handler(request(`/api/auth/verify-email?${query}`, { headers: cookie ? { cookie } : {} }))
}

async function user(auth: TwoFactorAuth, id: string) {
  const { db } = await auth.$context
  return db.findOne<{ emailVerified: boolean }>({ model: 'user', where: { field: 'id', value: id } })
}

describe('a verification link with autoSignInAfterVerification', () => {
  it('verifies the address of a user with two-factor on, and signs nobody in', async () => {
    const auth = twoFactorAuth({}, autoSignIn)
    const ada = await enroll(auth)
    const sessions = (await rows(auth, 'session', ada.userId)).length
    const response = await openLink(auth, await verificationToken(auth, ada.email))
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/welcome')
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await rows(auth, 'session', ada.userId)).toHaveLength(sessions)
    expect(await user(auth, ada.userId)).toMatchObject({ emailVerified: true })
    // The user signs in the usual way: password, then the second step.
    expect((await passwordStep(auth, ada.email)).body).toEqual({ twoFactorRedirect: true })
  })

  it('still signs in a user without two-factor', async () => {
    const auth = twoFactorAuth({}, autoSignIn)
    const { body } = await signUp(auth, { email: 'grace@example.com' })
    const response = await openLink(auth, await verificationToken(auth, 'grace@example.com'))
    expect(response.status).toBe(302)
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('gatehouse.session_token=')) as string
    expect(cookie).toBeDefined()
    expect((await getSession(auth, cookie.split(';')[0] as string)).user.id).toBe(body.user.id)
  })

  it('in a browser holding another session: no confirmation page, nothing parked, no switch', async () => {
    const auth = twoFactorAuth({}, autoSignIn)
    const ada = await enroll(auth)
    const other = await signUp(auth, { email: 'grace@example.com' })
    const response = await openLink(auth, await verificationToken(auth, ada.email), other.cookie)
    expect(response.status).toBe(302)
    expect(cookieNamed(response.headers.getSetCookie(), 'session_token')).toBeUndefined()
    const { db } = await auth.$context
    expect(await db.count({ model: 'verification', where: { field: 'identifier', operator: 'starts_with', value: 'verify-email-sign-in:' } })).toBe(0)
    expect((await getSession(auth, other.cookie)).user.email).toBe('grace@example.com')
  })

  it('POST /verify-email (the confirmation page’s form) signs nobody in either', async () => {
    const auth = twoFactorAuth({}, autoSignIn)
    const ada = await enroll(auth)
    const sessions = (await rows(auth, 'session', ada.userId)).length
    const token = await verificationToken(auth, ada.email)
    const posted = await post(auth, '/verify-email', { token })
    expect(posted).toMatchObject({ status: 200, body: { status: true, user: { id: ada.userId, emailVerified: true } } })
    expect(cookieNamed(posted.setCookies, 'session_token')).toBeUndefined()
    expect(await rows(auth, 'session', ada.userId)).toHaveLength(sessions)
  })
})
