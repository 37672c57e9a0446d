import { SignJWT } from 'jose'
import { describe, expect, it, vi } from 'vitest'
import { createSecrets } from '../src/crypto/keys.js'
import { memoryStorage } from '../src/storage/memory-storage.js'
import { hashSessionToken } from '../src/session/session-store.js'
import { signEmailToken } from '../src/verification/email-token.js'
import { createVerificationToken } from '../src/verification/verification-token.js'
import { definePlugin } from '../src/plugins/types.js'
import { accountAuth, authed, cookieHeader, PASSWORD, signUp } from './accounts.js'
import { captureLogs } from './capture-logs.js'
import { BASE, request } from './helpers.js'

type Auth = ReturnType<typeof accountAuth>

async function rows(auth: Auth, model: string) {
  return (await auth.$context).adapter.findMany({ model })
}

async function sendVerification(auth: Auth, json: unknown, cookie?: string) {
  const response = await auth.handler(
    cookie === undefined
      ? request('/api/auth/send-verification-email', { json, headers: { origin: BASE } })
      : authed('/api/auth/send-verification-email', cookie, { method: 'POST', json }),
  )
  return { response, body: await response.clone().json() }
}

function verifyPath(token: string, callbackURL?: string): string {
  const query = new URLSearchParams({ token })
  if (callbackURL !== undefined) query.set('callbackURL', callbackURL)
  return `/api/auth/verify-email?${query.toString()}`
}

async function verify(auth: Auth, token: string, callbackURL?: string, cookie?: string) {
  const path = verifyPath(token, callbackURL)
  return auth.handler(cookie === undefined ? request(path) : authed(path, cookie))
}

async function tokenFor(auth: Auth, email: string, seconds = 3600) {
  return signEmailToken(await auth.$context, { email }, seconds)
}

async function userRow(auth: Auth, email: string) {
  return (await rows(auth, 'user')).find((row) => row.email === email)
}

describe('POST /send-verification-email', () => {
  it('is 400 "Verification email isn\'t enabled" without a sendVerificationEmail callback', async () => {
    const auth = accountAuth({ emailVerification: { sendVerificationEmail: undefined } })
    await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await sendVerification(auth, { email: 'ada@example.com' })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'VERIFICATION_EMAIL_NOT_ENABLED', message: "Verification email isn't enabled" })
  })

  it('without a session: mails an unverified user a link with the token and callbackURL', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await sendVerification(auth, { email: 'Ada@Example.com', callbackURL: '/welcome' })
    expect(response.status).toBe(200)
    expect(body).toEqual({ status: true })
    const mail = auth.mailbox.last('verify-email')
    expect(mail?.to).toBe('ada@example.com')
    const url = new URL(mail?.url ?? '')
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/api/auth/verify-email`)
    expect(url.searchParams.get('token')).toBe(mail?.token)
    expect(url.searchParams.get('callbackURL')).toBe('/welcome')
    // An HS256 JWT (docs/accounts.md#email-verification).
    expect(JSON.parse(Buffer.from(mail?.token.split('.')[0] ?? '', 'base64url').toString())).toMatchObject({ alg: 'HS256' })
  })

  it('without a session: unknown, unverified and verified addresses get identical answers', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    await signUp(auth, { email: 'bob@example.com' })
    await auth.handler(request(verifyPath(await tokenFor(auth, 'bob@example.com'))))
    const before = auth.mailbox.mails.length

    const unknown = await sendVerification(auth, { email: 'nobody@example.com' })
    const verified = await sendVerification(auth, { email: 'bob@example.com' })
    expect(auth.mailbox.mails.length).toBe(before)
    const known = await sendVerification(auth, { email: 'ada@example.com' })
    expect(auth.mailbox.mails.length).toBe(before + 1)

    for (const answer of [unknown, verified, known]) {
      expect(answer.response.status).toBe(200)
      expect(answer.body).toEqual({ status: true })
    }
    expect(await unknown.response.text()).toBe(await known.response.text())
  })

  it('with a session: mails the user\'s own unverified address', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await sendVerification(auth, { email: 'ada@example.com' }, cookie)
    expect(response.status).toBe(200)
    expect(body).toEqual({ status: true })
    expect(auth.mailbox.last('verify-email')?.to).toBe('ada@example.com')
  })

  it('with a session: another address is 400 "Email mismatch" and mails nobody', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    await signUp(auth, { email: 'bob@example.com' })
    const { response, body } = await sendVerification(auth, { email: 'bob@example.com' }, cookie)
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'EMAIL_MISMATCH', message: 'Email mismatch' })
    expect(auth.mailbox.mails).toHaveLength(0)
  })

  it('with a session: an already verified address is 400 "Email is already verified"', async () => {
    const auth = accountAuth({ session: { cookieCache: { enabled: true } } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    await verify(auth, await tokenFor(auth, 'ada@example.com'))
    // The cookie's cache still says "unverified": the route must read the store instead.
    const { response, body } = await sendVerification(auth, { email: 'ada@example.com' }, cookie)
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'EMAIL_ALREADY_VERIFIED', message: 'Email is already verified' })
    expect(auth.mailbox.mails).toHaveLength(0)
  })

  it('rejects an invalid email (400) and an untrusted callbackURL (403)', async () => {
    const auth = accountAuth()
    const invalid = await sendVerification(auth, { email: 'not-an-email' })
    expect(invalid.response.status).toBe(400)
    expect(invalid.body).toEqual({ code: 'INVALID_EMAIL', message: 'Invalid email' })
    const untrusted = await sendVerification(auth, { email: 'ada@example.com', callbackURL: 'https://evil.test/x' })
    expect(untrusted.response.status).toBe(403)
    expect(untrusted.body).toEqual({ code: 'INVALID_CALLBACK_URL', message: 'Invalid callbackURL' })
  })

  it('a failing mail callback is a 500 "Failed to send email"', async () => {
    const auth = accountAuth({
      emailVerification: {
        sendVerificationEmail: () => {
          throw new Error('smtp down')
        },
      },
    })
    await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await sendVerification(auth, { email: 'ada@example.com' })
    expect(response.status).toBe(500)
    expect(body).toEqual({ code: 'FAILED_TO_SEND_EMAIL', message: 'Failed to send email' })
  })
})

describe('GET /verify-email', () => {
  it('verifies the user and answers {status, user} without a callbackURL', async () => {
    const after = vi.fn()
    const auth = accountAuth({ emailVerification: { afterEmailVerification: after } })
    const { body: signedUp } = await signUp(auth, { email: 'ada@example.com' })
    await sendVerification(auth, { email: 'ada@example.com' })
    const token = auth.mailbox.last('verify-email')?.token ?? ''
    const response = await verify(auth, token)
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.status).toBe(true)
    expect(body.user).toMatchObject({ id: signedUp.user.id, email: 'ada@example.com', emailVerified: true })
    expect((await userRow(auth, 'ada@example.com'))?.emailVerified).toBe(true)
    expect(after).toHaveBeenCalledTimes(1)
    expect(after.mock.calls[0]?.[0]).toMatchObject({ id: signedUp.user.id, emailVerified: true })
  })

  it('follows the mailed link: 302 to its callbackURL', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    await sendVerification(auth, { email: 'ada@example.com', callbackURL: '/welcome?step=2' })
    const response = await auth.handler(new Request(auth.mailbox.last('verify-email')?.url ?? ''))
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/welcome?step=2')
    expect((await userRow(auth, 'ada@example.com'))?.emailVerified).toBe(true)
  })

  it('an already verified user still succeeds, without calling afterEmailVerification again', async () => {
    const after = vi.fn()
    const auth = accountAuth({ emailVerification: { afterEmailVerification: after } })
    await signUp(auth, { email: 'ada@example.com' })
    const token = await tokenFor(auth, 'ada@example.com')
    expect((await verify(auth, token)).status).toBe(200)
    const again = await verify(auth, token)
    expect(again.status).toBe(200)
    expect((await again.json()).user.emailVerified).toBe(true)
    expect(after).toHaveBeenCalledTimes(1)
  })

  it('a failing afterEmailVerification is logged; the verification stands', async () => {
    const logs = captureLogs()
    const auth = accountAuth({
      logger: logs.logger,
      emailVerification: {
        afterEmailVerification: () => {
          throw new Error('crm down')
        },
      },
    })
    await signUp(auth, { email: 'ada@example.com' })
    expect((await verify(auth, await tokenFor(auth, 'ada@example.com'))).status).toBe(200)
    expect((await userRow(auth, 'ada@example.com'))?.emailVerified).toBe(true)
    expect(logs.lines.some((line) => line.includes('afterEmailVerification callback failed'))).toBe(true)
  })

  describe('errors', () => {
    it('without a callbackURL: 401 with the code as the message', async () => {
      const auth = accountAuth()
      await signUp(auth, { email: 'ada@example.com' })
      const expiring = await tokenFor(auth, 'ada@example.com')
      const ghost = await tokenFor(auth, 'ghost@example.com')
      const cases: Array<[string, string]> = [
        ['garbage', 'invalid_token'],
        ['', 'invalid_token'],
        [ghost, 'user_not_found'],
      ]
      for (const [token, code] of cases) {
        const response = await verify(auth, token)
        expect(response.status).toBe(401)
        expect(await response.json()).toEqual({ code: 'UNAUTHORIZED', message: code })
      }
      auth.clock.advance(3600 * 1000 + 1000)
      const expired = await verify(auth, expiring)
      expect(expired.status).toBe(401)
      expect(await expired.json()).toEqual({ code: 'UNAUTHORIZED', message: 'token_expired' })
      expect((await userRow(auth, 'ada@example.com'))?.emailVerified).toBe(false)
    })

    it('with a callbackURL: redirects with ?error= or &error=', async () => {
      const auth = accountAuth()
      const bare = await verify(auth, 'garbage', '/verified')
      expect(bare.status).toBe(302)
      expect(bare.headers.get('location')).toBe('/verified?error=invalid_token')
      const withQuery = await verify(auth, await tokenFor(auth, 'ghost@example.com'), '/verified?tab=1')
      expect(withQuery.headers.get('location')).toBe('/verified?tab=1&error=user_not_found')
      const absolute = await verify(auth, 'garbage', `${BASE}/verified#top`)
      expect(absolute.headers.get('location')).toBe(`${BASE}/verified?error=invalid_token#top`)
    })

    it('an expired token redirects with error=token_expired', async () => {
      const auth = accountAuth({ emailVerification: { expiresIn: 60 } })
      await signUp(auth, { email: 'ada@example.com' })
      await sendVerification(auth, { email: 'ada@example.com' })
      const token = auth.mailbox.last('verify-email')?.token ?? ''
      auth.clock.advance(61_000)
      const response = await verify(auth, token, '/verified')
      expect(response.headers.get('location')).toBe('/verified?error=token_expired')
      expect((await userRow(auth, 'ada@example.com'))?.emailVerified).toBe(false)
    })

    it('an untrusted callbackURL is 403 before the token is looked at', async () => {
      const auth = accountAuth()
      await signUp(auth, { email: 'ada@example.com' })
      const response = await verify(auth, await tokenFor(auth, 'ada@example.com'), 'https://evil.test/')
      expect(response.status).toBe(403)
      expect((await userRow(auth, 'ada@example.com'))?.emailVerified).toBe(false)
    })
  })

  describe('purpose binding: only tokens signed for email verification verify', () => {
    async function rejected(auth: Auth, token: string) {
      const response = await verify(auth, token)
      expect(response.status).toBe(401)
      expect((await response.json()).message).toBe('invalid_token')
    }

    it('rejects reset-password and delete-account tokens', async () => {
      const auth = accountAuth()
      const { body } = await signUp(auth, { email: 'ada@example.com' })
      const context = await auth.$context
      const reset = await createVerificationToken(context, 'reset-password', body.user.id, 3600)
      const remove = await createVerificationToken(context, 'delete-account', body.user.id, 3600)
      await rejected(auth, reset.token)
      await rejected(auth, remove.token)
      expect((await userRow(auth, 'ada@example.com'))?.emailVerified).toBe(false)
    })

    it('rejects a JWT signed with another purpose\'s key, another secret, or no signature', async () => {
      const auth = accountAuth()
      await signUp(auth, { email: 'ada@example.com' })
      const context = await auth.$context
      const now = Math.floor(auth.clock.now().getTime() / 1000)
      const sign = (key: Uint8Array) =>
        new SignJWT({ email: 'ada@example.com' })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setIssuedAt(now)
          .setExpirationTime(now + 3600)
          .sign(key)
      await rejected(auth, await sign(context.secrets.key('cookie:session_token')))
      await rejected(auth, await sign(context.secrets.key('delete-account')))
      const otherSecret = createSecrets('another-secret-0123456789-abcdefghijklmnop')
      await rejected(auth, await sign(otherSecret.key('email-verification-jwt')))
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
      const payload = Buffer.from(JSON.stringify({ email: 'ada@example.com', iat: now, exp: now + 3600 })).toString('base64url')
      await rejected(auth, `${header}.${payload}.`)
      expect((await userRow(auth, 'ada@example.com'))?.emailVerified).toBe(false)
    })
  })

  describe('sessions', () => {
    it('autoSignInAfterVerification signs in on the first verification only', async () => {
      const auth = accountAuth({ emailVerification: { autoSignInAfterVerification: true } })
      await signUp(auth, { email: 'ada@example.com' })
      const token = await tokenFor(auth, 'ada@example.com')
      const before = (await rows(auth, 'session')).length
      const response = await verify(auth, token, '/welcome')
      expect(response.status).toBe(302)
      expect(response.headers.getSetCookie().some((line) => line.startsWith('gatehouse.session_token='))).toBe(true)
      expect(await rows(auth, 'session')).toHaveLength(before + 1)
      const cookie = cookieHeader(response)
      const session = await (await auth.handler(authed('/api/auth/get-session', cookie))).json()
      expect(session.user).toMatchObject({ email: 'ada@example.com', emailVerified: true })

      // A replayed link (JWTs are not single-use) signs nobody in again.
      const replay = await verify(auth, token)
      expect(replay.status).toBe(200)
      expect(replay.headers.getSetCookie()).toEqual([])
      expect(await rows(auth, 'session')).toHaveLength(before + 1)
    })

    it('a plugin’s mayAutoSignIn may refuse the sign-in: the link then only verifies', async () => {
      const asked: string[] = []
      const plugin = definePlugin({
        id: 'holds-back',
        mayAutoSignIn: (_ctx, user) => {
          asked.push(user.email)
          return user.email !== 'ada@example.com'
        },
      })
      const auth = accountAuth({ plugins: [plugin], emailVerification: { autoSignInAfterVerification: true } })
      await signUp(auth, { email: 'ada@example.com' })
      await signUp(auth, { email: 'bob@example.com' })
      const before = (await rows(auth, 'session')).length
      const refused = await verify(auth, await tokenFor(auth, 'ada@example.com'), '/welcome')
      expect(refused.status).toBe(302)
      expect(refused.headers.get('location')).toBe('/welcome')
      expect(refused.headers.getSetCookie()).toEqual([])
      expect(await rows(auth, 'session')).toHaveLength(before)
      expect((await userRow(auth, 'ada@example.com'))?.emailVerified).toBe(true)
      const allowed = await verify(auth, await tokenFor(auth, 'bob@example.com'), '/welcome')
      expect(allowed.headers.getSetCookie().some((line) => line.startsWith('gatehouse.session_token='))).toBe(true)
      expect(asked).toEqual(['ada@example.com', 'bob@example.com'])
    })

    it('without autoSignInAfterVerification no session is created', async () => {
      const auth = accountAuth()
      await signUp(auth, { email: 'ada@example.com' })
      const before = (await rows(auth, 'session')).length
      const response = await verify(auth, await tokenFor(auth, 'ada@example.com'))
      expect(response.headers.getSetCookie()).toEqual([])
      expect(await rows(auth, 'session')).toHaveLength(before)
    })

    it('re-issues the caller\'s cookie cache with the verified user', async () => {
      const auth = accountAuth({
        session: { cookieCache: { enabled: true } },
        emailVerification: { autoSignInAfterVerification: true },
      })
      const { cookie } = await signUp(auth, { email: 'ada@example.com' })
      const before = (await rows(auth, 'session')).length
      const response = await verify(auth, await tokenFor(auth, 'ada@example.com'), undefined, cookie)
      expect(response.status).toBe(200)
      // Signed in already as this user: no second session.
      expect(await rows(auth, 'session')).toHaveLength(before)
      const read = async (header: string) =>
        (await (await auth.handler(authed('/api/auth/get-session', header))).json()).user.emailVerified
      expect(await read(cookie)).toBe(false)
      expect(await read(cookieHeader(response, cookie))).toBe(true)
    })

    it('rewrites the user inside every session kept in secondary storage', async () => {
      const storage = memoryStorage()
      const auth = accountAuth({ secondaryStorage: storage })
      const { body } = await signUp(auth, { email: 'ada@example.com' })
      await verify(auth, await tokenFor(auth, 'ada@example.com'))
      const stored = JSON.parse((await storage.get(`session:${hashSessionToken(body.token)}`)) ?? 'null')
      expect(stored.user.emailVerified).toBe(true)
    })
  })

  it('logs no token, even when things fail', async () => {
    const logs = captureLogs()
    let fail = false
    const sent: string[] = []
    const auth = accountAuth({
      logger: logs.logger,
      emailVerification: {
        sendVerificationEmail: ({ token }) => {
          sent.push(token)
          if (fail) throw new Error(`smtp refused ${token}`)
        },
      },
    })
    await signUp(auth, { email: 'ada@example.com' })
    await sendVerification(auth, { email: 'ada@example.com' })
    fail = true
    expect((await sendVerification(auth, { email: 'ada@example.com' })).response.status).toBe(500)
    const token = sent[0] ?? ''
    await verify(auth, token, '/done')
    await verify(auth, `${token}x`)
    expect(logs.lines.length).toBeGreaterThan(0)
    expect(logs.leaked(...sent, PASSWORD)).toEqual([])
  })
})
