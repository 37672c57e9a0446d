import { describe, expect, it, vi } from 'vitest'
import { defaultPasswordHasher } from '../src/password/index.js'
import { accountAuth, authed, HUGE_PASSWORD, recordingHasher, signIn, signUp } from './accounts.js'
import { BASE, request } from './helpers.js'

describe('POST /sign-in/email', () => {
  it('signs in: {redirect, token, url, user}, a session row and a 7-day cookie', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const { response, body, cookie } = await signIn(auth, { email: 'ADA@example.com' })
    expect(response.status).toBe(200)
    expect(body).toEqual({ redirect: false, token: expect.stringMatching(/^[A-Za-z0-9]{32}$/), user: expect.objectContaining({ email: 'ada@example.com' }) })
    expect(response.headers.getSetCookie()[0]).toMatch(/Max-Age=604800/)
    const { adapter } = await auth.$context
    expect(await adapter.count({ model: 'session' })).toBe(2)
    expect((await (await auth.handler(authed('/api/auth/get-session', cookie))).json()).user.email).toBe('ada@example.com')
  })

  it('with callbackURL answers redirect true and the url', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const { body } = await signIn(auth, { email: 'ada@example.com', callbackURL: '/dashboard' } as never)
    expect(body).toMatchObject({ redirect: true, url: '/dashboard' })
  })

  it('rememberMe false: a browser-session cookie plus the do-not-remember cookie', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const { response } = await signIn(auth, { email: 'ada@example.com', rememberMe: false })
    const cookies = response.headers.getSetCookie()
    const token = cookies.find((line) => line.startsWith('gatehouse.session_token='))
    expect(token).toBeDefined()
    expect(token).not.toMatch(/Max-Age|Expires/)
    expect(cookies.some((line) => line.startsWith('gatehouse.dont_remember='))).toBe(true)
  })

  it('unknown email, missing credential account and wrong password give the same 401 after the same work', async () => {
    let verifies = 0
    const auth = accountAuth({
      emailAndPassword: {
        enabled: true,
        password: {
          hash: defaultPasswordHasher.hash,
          verify: (args) => {
            verifies++
            return defaultPasswordHasher.verify(args)
          },
        },
      },
    })
    await signUp(auth, { email: 'ada@example.com' })
    const { db } = await auth.$context
    await db.create({ model: 'user', data: { name: 'Social', email: 'social@example.com' } })

    const answers = []
    for (const attempt of [
      { email: 'nobody@example.com', password: 'whatever1' },
      { email: 'social@example.com', password: 'whatever1' },
      { email: 'ada@example.com', password: 'wrong-password' },
    ]) {
      const before = verifies
      const { response, body } = await signIn(auth, attempt)
      answers.push({ status: response.status, body, verifies: verifies - before })
    }
    const expected = { status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' }, verifies: 1 }
    expect(answers).toEqual([expected, expected, expected])
  })

  it('a 1 MiB password of U+FDFA never reaches NFKC or the hasher, and answers as a wrong password after the same work', async () => {
    const hasher = recordingHasher()
    const auth = accountAuth({ emailAndPassword: { enabled: true, password: hasher.password } })
    await signUp(auth, { email: 'ada@example.com' })
    hasher.lengths.length = 0
    const normalize = vi.spyOn(String.prototype, 'normalize')
    const answers = []
    let normalized: number[]
    try {
      for (const attempt of [
        { email: 'ada@example.com', password: HUGE_PASSWORD },
        { email: 'nobody@example.com', password: HUGE_PASSWORD },
        { email: 'ada@example.com', password: 'wrong-password' },
      ]) {
        const before = hasher.lengths.length
        const { response, body } = await signIn(auth, attempt)
        answers.push({ status: response.status, body, verifies: hasher.lengths.length - before })
      }
      normalized = normalize.mock.contexts.map((text) => String(text).length)
    } finally {
      normalize.mockRestore()
    }
    const expected = { status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' }, verifies: 1 }
    expect(answers).toEqual([expected, expected, expected])
    // One derivation each, as for a wrong password, but on at most maxPasswordLength (128) units.
    expect(Math.max(...hasher.lengths)).toBeLessThanOrEqual(128)
    expect(Math.max(0, ...normalized)).toBeLessThanOrEqual(128)
  })

  it('maxPasswordLength counts code points: at the limit the password signs in, one over is refused unhashed', async () => {
    const hasher = recordingHasher()
    const auth = accountAuth({ emailAndPassword: { enabled: true, maxPasswordLength: 16, password: hasher.password } })
    const atLimit = '🔑'.repeat(16)
    expect((await signUp(auth, { email: 'ada@example.com', password: atLimit })).response.status).toBe(200)
    expect((await signIn(auth, { email: 'ada@example.com', password: atLimit })).response.status).toBe(200)
    hasher.lengths.length = 0
    const over = await signIn(auth, { email: 'ada@example.com', password: `${atLimit}x` })
    expect(over.response.status).toBe(401)
    expect(over.body).toEqual({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' })
    expect(hasher.lengths).toHaveLength(1)
    expect(hasher.lengths[0]).toBeLessThanOrEqual(16)
  })

  it('an invalid email is 400 "Invalid email"; a missing password is a 400 naming the field', async () => {
    const auth = accountAuth()
    const bad = await signIn(auth, { email: 'nope' })
    expect(bad.response.status).toBe(400)
    expect(bad.body).toEqual({ code: 'INVALID_EMAIL', message: 'Invalid email' })
    const response = await auth.handler(request('/api/auth/sign-in/email', { json: { email: 'a@example.com' } }))
    expect(response.status).toBe(400)
    expect((await response.json()).message).toMatch(/^body\.password:/)
  })

  it('disabled: 400 "Email and password is not enabled"', async () => {
    const auth = accountAuth({ emailAndPassword: { enabled: false } })
    const { response, body } = await signIn(auth, { email: 'a@example.com' })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'EMAIL_PASSWORD_DISABLED', message: 'Email and password is not enabled' })
  })

  it('requireEmailVerification: unverified → 403 "Email not verified" and the mail is sent again; verified → signs in', async () => {
    const auth = accountAuth({ emailAndPassword: { enabled: true, requireEmailVerification: true } })
    await signUp(auth, { email: 'ada@example.com' })
    const before = auth.mailbox.mails.length
    const { response, body } = await signIn(auth, { email: 'ada@example.com' })
    expect(response.status).toBe(403)
    expect(body).toEqual({ code: 'EMAIL_NOT_VERIFIED', message: 'Email not verified' })
    // No session; only the binding that lets this browser's copy of the new link sign in (docs/security.md#login-csrf).
    expect(response.headers.getSetCookie().map((line) => line.split('=')[0])).toEqual(['gatehouse.link_binding'])
    expect(auth.mailbox.mails.length).toBe(before + 1)
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'email', value: 'ada@example.com' }, update: { emailVerified: true } })
    expect((await signIn(auth, { email: 'ada@example.com' })).response.status).toBe(200)
  })

  it('the sign-in limit (3 per 10 s per client) applies to the real route', async () => {
    const auth = accountAuth({ rateLimit: { enabled: true } })
    const statuses = []
    for (let index = 0; index < 5; index++) {
      const response = await auth.handler(
        request('/api/auth/sign-in/email', {
          json: { email: 'nobody@example.com', password: 'whatever1' },
          headers: { 'x-forwarded-for': '198.51.100.7', origin: BASE },
        }),
      )
      statuses.push(response.status)
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429])
  })

  it('logs neither passwords nor tokens', async () => {
    const lines: string[] = []
    const auth = accountAuth({ logger: { level: 'debug', log: (level, message, meta) => lines.push(`${level} ${message} ${JSON.stringify(meta ?? {})}`) } })
    const up = await signUp(auth, { email: 'ada@example.com' })
    await signIn(auth, { email: 'ada@example.com', password: 'wrong-password' })
    const good = await signIn(auth, { email: 'ada@example.com' })
    const text = lines.join('\n')
    expect(text).not.toContain('correct horse battery')
    expect(text).not.toContain('wrong-password')
    expect(text).not.toContain(up.body.token)
    expect(text).not.toContain(good.body.token)
  })
})
