import { describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { appCode, enroll, twoFactorAuth } from '../../two-factor/test/fixtures.js'
import { emailOTP } from '../src/plugin.js'
import { askCode, codeAuth, otherCode, PASSWORD, post, rows } from './fixtures.js'

describe('signing in with a code', () => {
  it('a new address: the code signs up a verified user and opens a session that records the mailbox', async () => {
    const auth = codeAuth()
    const code = await askCode(auth, 'Ada@Example.com')
    expect(code).toMatch(/^\d{6}$/)
    expect(auth.outbox.at(-1)).toMatchObject({ email: 'ada@example.com', type: 'sign-in' })
    const answer = await post(auth, '/sign-in/email-otp', { email: 'ada@example.com', otp: code, name: 'Ada' })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ token: expect.any(String), user: { email: 'ada@example.com', emailVerified: true, name: 'Ada' } })
    const session = await auth.api.getSession({ headers: new Headers({ cookie: answer.cookie }) })
    expect(session?.user.email).toBe('ada@example.com')
    expect((await rows(auth, 'session', 'userId', answer.body.user.id)).map((row) => row.amr)).toEqual(['email'])
  })

  it('an unverified account: the first proof of the mailbox ends what was set up before it (password, sessions)', async () => {
    const auth = codeAuth()
    const squatter = await signUp(auth, { email: 'victim@example.com' })
    const code = await askCode(auth, 'victim@example.com')
    const answer = await post(auth, '/sign-in/email-otp', { email: 'victim@example.com', otp: code })
    expect(answer.status).toBe(200)
    expect(await auth.api.getSession({ headers: new Headers({ cookie: squatter.cookie }) })).toBeNull()
    expect(await rows(auth, 'account', 'userId', answer.body.user.id)).toEqual([])
    expect((await post(auth, '/sign-in/email', { email: 'victim@example.com', password: PASSWORD })).status).toBe(401)
  })

  it('three wrong codes void the code, the right one included', async () => {
    const auth = codeAuth()
    const code = (await askCode(auth, 'ada@example.com'))!
    const tries = []
    for (const otp of [otherCode(code), otherCode(code), otherCode(code), code]) {
      const answer = await post(auth, '/sign-in/email-otp', { email: 'ada@example.com', otp })
      tries.push([answer.status, answer.body.code])
    }
    expect(tries).toEqual([
      [400, 'INVALID_OTP'],
      [400, 'INVALID_OTP'],
      [403, 'TOO_MANY_ATTEMPTS'],
      [400, 'INVALID_OTP'],
    ])
    expect(await rows(auth, 'user', 'email', 'ada@example.com')).toEqual([])
  })

  it('twenty parallel sign-ins with one code: one session, one user', async () => {
    const auth = codeAuth()
    const code = await askCode(auth, 'race@example.com')
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(auth, '/sign-in/email-otp', { email: 'race@example.com', otp: code })))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    const users = await rows(auth, 'user', 'email', 'race@example.com')
    expect(users).toHaveLength(1)
    expect(await rows(auth, 'session', 'userId', String(users[0]!.id))).toHaveLength(1)
  })

  it('a code expires after five minutes; a code of another type or address never passes', async () => {
    const auth = codeAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const reset = await askCode(auth, 'ada@example.com', 'forget-password')
    expect((await post(auth, '/sign-in/email-otp', { email: 'ada@example.com', otp: reset })).body.code).toBe('INVALID_OTP')
    const code = await askCode(auth, 'grace@example.com')
    expect((await post(auth, '/sign-in/email-otp', { email: 'ada@example.com', otp: code })).body.code).toBe('INVALID_OTP')
    auth.clock.advance(300_000)
    expect(await post(auth, '/sign-in/email-otp', { email: 'grace@example.com', otp: code })).toMatchObject({ status: 400, body: { code: 'OTP_EXPIRED' } })
  })

  it('stores only a keyed hash of the code', async () => {
    const auth = codeAuth()
    const code = await askCode(auth, 'ada@example.com')
    const { db } = await auth.$context
    const stored = JSON.stringify(await db.findMany({ model: 'verification' }))
    expect(stored).not.toContain(code)
    expect(stored).not.toContain('ada@example.com')
  })

  it('with sign-up off, an unknown address gets the same answer and no mail, and no code is left to guess', async () => {
    const auth = codeAuth({ emailOTP: { disableSignUp: true } })
    await signUp(auth, { email: 'ada@example.com' })
    const known = await post(auth, '/email-otp/send-verification-otp', { email: 'ada@example.com', type: 'sign-in' })
    const unknown = await post(auth, '/email-otp/send-verification-otp', { email: 'nobody@example.com', type: 'sign-in' })
    expect(unknown).toMatchObject({ status: known.status, body: known.body })
    await auth.flush()
    expect(auth.outbox.map((mail) => mail.email)).toEqual(['ada@example.com'])
    const { db } = await auth.$context
    expect(await db.count({ model: 'verification' })).toBe(1)
  })

  it('an account with a second factor still passes it after the code', async () => {
    const auth = twoFactorAuth({}, {}, [emailOTP({ sendVerificationOTP: (mail) => void mails.push(mail) })])
    const mails: { email: string; otp: string }[] = []
    const enrolled = await enroll(auth)
    await post(auth, '/email-otp/send-verification-otp', { email: enrolled.email, type: 'sign-in' })
    await new Promise((resolve) => setTimeout(resolve, 5))
    const first = await post(auth, '/sign-in/email-otp', { email: enrolled.email, otp: mails.at(-1)!.otp })
    expect(first).toMatchObject({ status: 200, body: { twoFactorRedirect: true } })
    expect(first.setCookies.some((line) => line.includes('session_token='))).toBe(false)
    const second = await post(auth, '/two-factor/verify-totp', { code: appCode(enrolled.secret, auth.clock.now()) }, first.cookie)
    expect(second.status).toBe(200)
    const { db } = await auth.$context
    const sessions = await db.findMany<Record<string, unknown>>({ model: 'session', where: { field: 'userId', value: enrolled.userId } })
    expect(sessions.map((row) => row.amr)).toContain('email otp mfa')
  })

  it('a cross-site form cannot sign a browser in with a code (login CSRF)', async () => {
    const auth = codeAuth()
    const code = await askCode(auth, 'ada@example.com')
    const answer = await post(auth, '/sign-in/email-otp', { email: 'ada@example.com', otp: code }, 'gatehouse.session_token=x', { origin: 'https://evil.example' })
    expect(answer.status).toBe(403)
    expect((await post(auth, '/sign-in/email-otp', { email: 'ada@example.com', otp: code })).status).toBe(200)
  })
})

describe('limits', () => {
  it('an address gets 3 codes a minute, whichever clients ask', async () => {
    const auth = codeAuth({ core: { rateLimit: { enabled: true } } })
    const statuses: number[] = []
    for (let index = 0; index < 4; index += 1) {
      const answer = await post(auth, '/email-otp/send-verification-otp', { email: 'ada@example.com', type: 'sign-in' }, '', { 'x-forwarded-for': `203.0.113.${index + 1}` })
      statuses.push(answer.status)
    }
    expect(statuses).toEqual([200, 200, 200, 429])
  })

  it('a client gets 3 tries a minute on each route', async () => {
    const auth = codeAuth({ core: { rateLimit: { enabled: true } } })
    const statuses: number[] = []
    for (let index = 0; index < 4; index += 1) {
      statuses.push((await post(auth, '/sign-in/email-otp', { email: `user${index}@example.com`, otp: '123456' }, '', { 'x-forwarded-for': '203.0.113.9' })).status)
    }
    expect(statuses).toEqual([400, 400, 400, 429])
  })
})

describe('verifying an address', () => {
  it('verifies the signed-in user, whose session shows it at once; a verified address gets no code', async () => {
    const auth = codeAuth()
    const ada = await signUp(auth, { email: 'ada@example.com' })
    const code = await askCode(auth, 'ada@example.com', 'email-verification')
    const answer = await post(auth, '/email-otp/verify-email', { email: 'ada@example.com', otp: code }, ada.cookie)
    expect(answer).toMatchObject({ status: 200, body: { status: true, token: null, user: { emailVerified: true } } })
    expect((await auth.api.getSession({ headers: new Headers({ cookie: answer.cookie }) }))?.user.emailVerified).toBe(true)
    const before = auth.outbox.length
    await askCode(auth, 'ada@example.com', 'email-verification')
    expect(auth.outbox).toHaveLength(before)
  })

  it('with autoSignInAfterVerification, a browser without the session is signed in once', async () => {
    const auth = codeAuth({ core: { emailVerification: { autoSignInAfterVerification: true } } })
    await signUp(auth, { email: 'ada@example.com' })
    const code = await askCode(auth, 'ada@example.com', 'email-verification')
    const answer = await post(auth, '/email-otp/verify-email', { email: 'ada@example.com', otp: code })
    expect(answer.body.token).toEqual(expect.any(String))
    expect((await auth.api.getSession({ headers: new Headers({ cookie: answer.cookie }) }))?.user.email).toBe('ada@example.com')
  })

  it('check-verification-otp says a code is right without using it up', async () => {
    const auth = codeAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const code = await askCode(auth, 'ada@example.com', 'email-verification')
    expect((await post(auth, '/email-otp/check-verification-otp', { email: 'ada@example.com', type: 'email-verification', otp: code })).body).toEqual({ success: true })
    expect((await post(auth, '/email-otp/verify-email', { email: 'ada@example.com', otp: code })).status).toBe(200)
  })
})

describe('resetting the password', () => {
  it('a known address gets a code, an unknown one the same answer and none; the reset ends every session', async () => {
    const auth = codeAuth()
    const ada = await signUp(auth, { email: 'ada@example.com' })
    const known = await post(auth, '/email-otp/request-password-reset', { email: 'ada@example.com' })
    const unknown = await post(auth, '/forget-password/email-otp', { email: 'nobody@example.com' })
    expect(unknown.body).toEqual(known.body)
    await auth.flush()
    expect(auth.outbox.map((mail) => [mail.email, mail.type])).toEqual([['ada@example.com', 'forget-password']])
    const code = auth.outbox[0]!.otp
    const reset = await post(auth, '/email-otp/reset-password', { email: 'ada@example.com', otp: code, password: 'a brand new password' })
    expect(reset.body).toEqual({ success: true })
    expect(await auth.api.getSession({ headers: new Headers({ cookie: ada.cookie }) })).toBeNull()
    expect((await post(auth, '/sign-in/email', { email: 'ada@example.com', password: PASSWORD })).status).toBe(401)
    expect((await post(auth, '/sign-in/email', { email: 'ada@example.com', password: 'a brand new password' })).status).toBe(200)
    expect((await post(auth, '/email-otp/reset-password', { email: 'ada@example.com', otp: code, password: 'yet another password' })).body.code).toBe('INVALID_OTP')
  })
})

describe('changing the address', () => {
  it('a code to the new address moves the account onto it, verified; the session follows', async () => {
    const auth = codeAuth()
    const ada = await signUp(auth, { email: 'ada@example.com' })
    expect((await post(auth, '/email-otp/request-email-change', { newEmail: 'countess@example.com' }, ada.cookie)).body).toEqual({ success: true })
    const code = await auth.codeFor('countess@example.com', 'change-email')
    expect(code).toMatch(/^\d{6}$/)
    const changed = await post(auth, '/email-otp/change-email', { newEmail: 'countess@example.com', otp: code }, ada.cookie)
    expect(changed.body).toEqual({ success: true })
    const session = await auth.api.getSession({ headers: new Headers({ cookie: changed.cookie }), query: { disableCookieCache: 'true' } })
    expect(session?.user).toMatchObject({ email: 'countess@example.com', emailVerified: true })
  })

  it('an address another account holds gets no code; a code never confirms a change to another address', async () => {
    const auth = codeAuth()
    const ada = await signUp(auth, { email: 'ada@example.com' })
    await signUp(auth, { email: 'grace@example.com' })
    await post(auth, '/email-otp/request-email-change', { newEmail: 'grace@example.com' }, ada.cookie)
    await auth.flush()
    expect(auth.outbox).toEqual([])
    await post(auth, '/email-otp/request-email-change', { newEmail: 'one@example.com' }, ada.cookie)
    const code = await auth.codeFor('one@example.com')
    expect((await post(auth, '/email-otp/change-email', { newEmail: 'two@example.com', otp: code }, ada.cookie)).body.code).toBe('INVALID_OTP')
  })

  it('is refused without a session, and when the option is off', async () => {
    const auth = codeAuth({ emailOTP: { changeEmail: { enabled: false } } })
    expect((await post(auth, '/email-otp/request-email-change', { newEmail: 'x@example.com' })).status).toBe(401)
    const ada = await signUp(auth, { email: 'ada@example.com' })
    expect((await post(auth, '/email-otp/request-email-change', { newEmail: 'x@example.com' }, ada.cookie)).body.code).toBe('CHANGE_EMAIL_DISABLED')
  })
})
