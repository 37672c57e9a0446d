import { describe, expect, it } from 'vitest'
import { memoryStorage } from '../src/storage/memory-storage.js'
import { accountAuth, authed, signUp } from './accounts.js'

async function rows(auth: { $context: Promise<{ adapter: { findMany(args: { model: string }): Promise<Record<string, unknown>[]> } }> }, model: string) {
  return (await auth.$context).adapter.findMany({ model })
}

describe('POST /sign-up/email', () => {
  it('creates the user and its credential account, stores the email lowercase, signs in', async () => {
    const auth = accountAuth()
    const { response, body, cookie } = await signUp(auth, { email: '  Ada@Example.COM ', name: 'Ada' })
    expect(response.status).toBe(200)
    expect(body.token).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(body.user).toEqual({
      id: expect.any(String),
      name: 'Ada',
      email: 'ada@example.com',
      emailVerified: false,
      image: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    const users = await rows(auth, 'user')
    expect(users).toHaveLength(1)
    expect(users[0]?.email).toBe('ada@example.com')
    const accounts = await rows(auth, 'account')
    expect(accounts).toHaveLength(1)
    expect(accounts[0]).toMatchObject({ providerId: 'credential', accountId: body.user.id, userId: body.user.id })
    expect(String(accounts[0]?.password)).toMatch(/^scrypt\$16384\$16\$1\$/)
    expect(String(accounts[0]?.password)).not.toContain('correct horse')

    const sessions = await rows(auth, 'session')
    expect(sessions).toHaveLength(1)
    // A database dump yields no usable session: the stored token is the hash, not the cookie's token.
    expect(sessions[0]?.token).not.toBe(body.token)
    expect(String(sessions[0]?.token)).toHaveLength(43)
    expect(cookie).toMatch(/^gatehouse\.session_token=/)
    const setCookie = response.headers.getSetCookie()[0] ?? ''
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/SameSite=Lax/)
    expect(setCookie).toMatch(/Max-Age=604800/)

    const session = await auth.handler(authed('/api/auth/get-session', cookie))
    expect((await session.json()).user.id).toBe(body.user.id)
  })

  it('the answer contains no password hash', async () => {
    const auth = accountAuth()
    const { response } = await signUp(auth, { email: 'ada@example.com' })
    expect(await response.text()).not.toMatch(/scrypt|password/)
  })

  it.each([
    ['not-an-email', 400, 'INVALID_EMAIL', 'Invalid email'],
    ['a@b', 400, 'INVALID_EMAIL', 'Invalid email'],
  ])('rejects email %s', async (email, status, code, message) => {
    const auth = accountAuth()
    const { response, body } = await signUp(auth, { email })
    expect(response.status).toBe(status)
    expect(body).toEqual({ code, message })
    expect(await rows(auth, 'user')).toHaveLength(0)
  })

  it('checks password length (8..128 by default, configurable), never truncating', async () => {
    const auth = accountAuth()
    const short = await signUp(auth, { email: 'a@example.com', password: '1234567' })
    expect(short.response.status).toBe(400)
    expect(short.body).toEqual({ code: 'PASSWORD_TOO_SHORT', message: 'Password too short', minLength: 8 })
    const long = await signUp(auth, { email: 'a@example.com', password: 'x'.repeat(129) })
    expect(long.response.status).toBe(400)
    expect(long.body).toEqual({ code: 'PASSWORD_TOO_LONG', message: 'Password too long', maxLength: 128 })
    expect((await signUp(auth, { email: 'a@example.com', password: 'x'.repeat(128) })).response.status).toBe(200)

    const custom = accountAuth({ emailAndPassword: { enabled: true, minPasswordLength: 12, maxPasswordLength: 20 } })
    expect((await signUp(custom, { email: 'b@example.com', password: 'elevenchars' })).body).toMatchObject({ code: 'PASSWORD_TOO_SHORT', minLength: 12 })
    expect((await signUp(custom, { email: 'b@example.com', password: 'x'.repeat(21) })).body).toMatchObject({ code: 'PASSWORD_TOO_LONG', maxLength: 20 })
  })

  it('an existing email (any case) is 422 "User already exists"', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const again = await signUp(auth, { email: 'ADA@example.com' })
    expect(again.response.status).toBe(422)
    expect(again.body).toEqual({ code: 'USER_ALREADY_EXISTS', message: 'User already exists' })
    expect(await rows(auth, 'user')).toHaveLength(1)
    expect(await rows(auth, 'account')).toHaveLength(1)
  })

  it('20 concurrent sign-ups with one email: one user, one account, the rest 422', async () => {
    const auth = accountAuth()
    const results = await Promise.all(Array.from({ length: 20 }, () => signUp(auth, { email: 'race@example.com' })))
    const statuses = results.map((result) => result.response.status).sort()
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 422)).toHaveLength(19)
    expect(await rows(auth, 'user')).toHaveLength(1)
    expect(await rows(auth, 'account')).toHaveLength(1)
    expect(await rows(auth, 'session')).toHaveLength(1)
  })

  it('disabled: "Email and password sign up is not enabled"', async () => {
    for (const emailAndPassword of [{ enabled: false }, { enabled: true, disableSignUp: true }]) {
      const auth = accountAuth({ emailAndPassword })
      const { response, body } = await signUp(auth, { email: 'a@example.com' })
      expect(response.status).toBe(400)
      expect(body).toEqual({ code: 'EMAIL_PASSWORD_SIGN_UP_DISABLED', message: 'Email and password sign up is not enabled' })
    }
  })

  it('autoSignIn off: token null, no session, no cookie', async () => {
    const auth = accountAuth({ emailAndPassword: { enabled: true, autoSignIn: false } })
    const { response, body } = await signUp(auth, { email: 'a@example.com' })
    expect(response.status).toBe(200)
    expect(body.token).toBeNull()
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await rows(auth, 'session')).toHaveLength(0)
  })

  it('requireEmailVerification: no session, a verification mail is sent', async () => {
    const auth = accountAuth({ emailAndPassword: { enabled: true, requireEmailVerification: true } })
    const { body } = await signUp(auth, { email: 'a@example.com', callbackURL: '/welcome' })
    expect(body.token).toBeNull()
    const mail = auth.mailbox.last('verify-email')
    expect(mail?.to).toBe('a@example.com')
    expect(mail?.url).toMatch(/^http:\/\/localhost:3000\/api\/auth\/verify-email\?token=[\w-]+\.[\w-]+\.[\w-]+&callbackURL=%2Fwelcome$/)
  })

  it('sendOnSignUp mails the link and still signs in', async () => {
    const auth = accountAuth({ emailVerification: { sendOnSignUp: true } })
    const { body } = await signUp(auth, { email: 'a@example.com' })
    expect(typeof body.token).toBe('string')
    expect(auth.mailbox.mails.map((mail) => mail.kind)).toEqual(['verify-email'])
  })

  it('a failing mail callback leaves no user behind', async () => {
    const auth = accountAuth({
      emailVerification: {
        sendOnSignUp: true,
        sendVerificationEmail: () => {
          throw new Error('smtp down')
        },
      },
    })
    const { response, body } = await signUp(auth, { email: 'a@example.com' })
    expect(response.status).toBe(500)
    expect(body).toEqual({ code: 'FAILED_TO_SEND_EMAIL', message: 'Failed to send email' })
    expect(await rows(auth, 'user')).toHaveLength(0)
    expect(await rows(auth, 'account')).toHaveLength(0)
    expect(await rows(auth, 'session')).toHaveLength(0)
    expect((await signUp(auth, { email: 'a@example.com' })).response.status).toBe(500)
  })

  it('additional fields: configured ones stored, input:false ignored, required enforced, unknown dropped', async () => {
    const auth = accountAuth({
      user: {
        additionalFields: {
          plan: { type: 'string', required: false },
          age: { type: 'number', required: false },
          company: { type: 'string' },
          role: { type: 'string', input: false, defaultValue: 'member' },
        },
      },
    })
    const missing = await signUp(auth, { email: 'a@example.com' })
    expect(missing.response.status).toBe(400)
    expect(missing.body).toEqual({ code: 'FIELD_REQUIRED', message: 'company is required' })

    const wrongType = await signUp(auth, { email: 'a@example.com', company: 'Acme', age: 'old' })
    expect(wrongType.response.status).toBe(400)
    expect(wrongType.body.message).toBe('body.age: expected number')

    const { body } = await signUp(auth, { email: 'a@example.com', company: 'Acme', plan: 'pro', role: 'admin', isAdmin: true })
    expect(body.user).toMatchObject({ company: 'Acme', plan: 'pro', role: 'member' })
    expect(body.user).not.toHaveProperty('isAdmin')
    const [user] = await rows(auth, 'user')
    expect(user).toMatchObject({ company: 'Acme', plan: 'pro', role: 'member', age: null })
  })

  it('caps name (256), image (2048) and string additional fields (1024, or the field\'s maxLength): 400 naming the field, nothing stored', async () => {
    const auth = accountAuth({
      user: { additionalFields: { bio: { type: 'string', required: false }, motto: { type: 'string', required: false, maxLength: 10 } } },
    })
    const tooLong = (field: string, max: number) => ({
      code: 'VALIDATION_ERROR',
      message: `body.${field}: Too big: expected string to have <=${max} characters`,
      issues: [{ path: `body.${field}`, message: `Too big: expected string to have <=${max} characters` }],
    })
    for (const [fields, field, max] of [
      [{ name: 'n'.repeat(257) }, 'name', 256],
      [{ image: `https://img.test/${'i'.repeat(2048)}` }, 'image', 2048],
      [{ bio: 'b'.repeat(1025) }, 'bio', 1024],
      [{ motto: 'm'.repeat(11) }, 'motto', 10],
    ] as const) {
      const { response, body } = await signUp(auth, { email: 'a@example.com', ...fields })
      expect(response.status).toBe(400)
      expect(body).toEqual(tooLong(field, max))
    }
    expect(await rows(auth, 'user')).toHaveLength(0)

    const atLimits = await signUp(auth, {
      email: 'a@example.com',
      name: 'n'.repeat(256),
      image: `https://img.test/${'i'.repeat(2048 - 17)}`,
      bio: 'b'.repeat(1024),
      motto: 'm'.repeat(10),
    })
    expect(atLimits.response.status).toBe(200)
    expect(await rows(auth, 'user')).toHaveLength(1)
  })

  it('with secondary storage the new session is readable from it', async () => {
    const storage = memoryStorage()
    const auth = accountAuth({ secondaryStorage: storage })
    const { cookie, body } = await signUp(auth, { email: 'a@example.com' })
    const [session] = await rows(auth, 'session')
    const stored = await storage.get(`session:${String(session?.token)}`)
    expect(JSON.parse(stored ?? 'null').user.id).toBe(body.user.id)
    // The copy holds the session and user only, never the raw token the client got.
    expect(Object.keys(JSON.parse(stored ?? '{}')).sort()).toEqual(['session', 'user'])
    expect(stored).not.toContain(body.token)
    const response = await auth.handler(authed('/api/auth/get-session', cookie))
    expect((await response.json()).user.email).toBe('a@example.com')
  })
})
