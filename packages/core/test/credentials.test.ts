/**
 * Credentials other than the session cookie (docs/sessions.md#credentials-other-than-the-cookie):
 * a plugin's `authenticate` (a test key header standing in for an API key),
 * and the routes it may and may not use. The key's session is served on
 * session routes, is never written back as a cookie, never falls back to the
 * cookie when refused, and is refused (403 CREDENTIAL_NOT_ALLOWED) on every
 * route that changes credentials.
 */
import { describe, expect, it } from 'vitest'
import { findUserByEmail } from '../src/accounts/users.js'
import { CoreErrors, definePlugin, optionalSessionMiddleware, sessionSource, type AuthContext } from '../src/index.js'
import { accountAuth, authed, browserAnswer, PASSWORD, signUp } from './accounts.js'
import { BASE, request } from './helpers.js'
import { testKeyPlugin } from './test-key.js'

function setup(options: Parameters<typeof accountAuth>[0] = {}) {
  const calls = { count: 0 }
  const auth = accountAuth({ ...options, plugins: [testKeyPlugin(calls)] })
  return { auth, calls }
}

/** A request carrying the test key of `userId`. */
const keyed = (path: string, userId: string, init: RequestInit & { json?: unknown } = {}) =>
  request(path, { ...init, headers: { 'x-test-key': userId, ...(init.headers as Record<string, string>) } })

async function userId(auth: { readonly $context: Promise<AuthContext> }, email: string): Promise<string> {
  const user = await findUserByEmail((await auth.$context).db, email)
  if (!user) throw new Error(`no user ${email}`)
  return user.id
}

describe('a plugin credential', () => {
  it('serves get-session as the key owner, sets no cookie and asks the plugin once per call', async () => {
    const { auth, calls } = setup({ session: { cookieCache: { enabled: true } } })
    await signUp(auth, { email: 'ada@example.com' })
    const ada = await userId(auth, 'ada@example.com')
    const answer = await browserAnswer(await auth.handler(keyed('/api/auth/get-session', ada)))
    expect(answer.status).toBe(200)
    expect(answer.body.user.email).toBe('ada@example.com')
    expect(answer.body.session.id).toBe('key-1')
    expect(answer.setCookies).toEqual([])
    expect(calls.count).toBe(1)
    // list-sessions reads the session through its middleware, then the handler: still one lookup.
    const listed = await auth.handler(keyed('/api/auth/list-sessions', ada))
    expect(listed.status).toBe(200)
    expect(listed.headers.getSetCookie()).toEqual([])
    expect(calls.count).toBe(2)
  })

  it('answers through auth.api.getSession with the key header, as an application server reads it', async () => {
    const { auth } = setup()
    await signUp(auth, { email: 'ada@example.com' })
    const data = await auth.api.getSession({ headers: { 'x-test-key': await userId(auth, 'ada@example.com') } })
    expect(data?.user.email).toBe('ada@example.com')
    expect(data && sessionSource(data)).toEqual({ source: 'test-key', mayChangeCredentials: false })
  })

  it('keeps the source on a get-session answer with custom fields, so after-hooks still see the key', async () => {
    const calls = { count: 0 }
    const auth = accountAuth({ plugins: [testKeyPlugin(calls), definePlugin({ id: 'extra', customizeSession: () => ({ plan: 'pro' }) })] })
    await signUp(auth, { email: 'ada@example.com' })
    const data = await auth.api.getSession({ headers: { 'x-test-key': await userId(auth, 'ada@example.com') } })
    expect(data).toMatchObject({ plan: 'pro' })
    expect(data && sessionSource(data)).toEqual({ source: 'test-key', mayChangeCredentials: false })
  })

  it('decides when present: a refused key answers its error even beside a valid session cookie', async () => {
    const { auth } = setup()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const response = await auth.handler(authed('/api/auth/get-session', cookie, { headers: { 'x-test-key': 'refused' } }))
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ code: 'TEST_KEY_REFUSED' })
    // Without the header, the cookie works as before.
    const plain = await browserAnswer(await auth.handler(authed('/api/auth/get-session', cookie)))
    expect(plain.body.user.email).toBe('ada@example.com')
  })

  it('never reads or writes the cookie cache for a key: the key owner is answered, not the cached cookie user', async () => {
    const { auth } = setup({ session: { cookieCache: { enabled: true } } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    await signUp(auth, { email: 'bob@example.com' })
    const answer = await browserAnswer(await auth.handler(authed('/api/auth/get-session', cookie, { headers: { 'x-test-key': await userId(auth, 'bob@example.com') } })))
    expect(answer.body.user.email).toBe('bob@example.com')
    expect(answer.setCookies).toEqual([])
  })

  it.each([
    ['change-password', { currentPassword: PASSWORD, newPassword: 'another long password' }],
    ['change-email', { newEmail: 'new@example.com' }],
    ['revoke-sessions', {}],
    ['revoke-other-sessions', {}],
    ['revoke-session', { token: 'whatever' }],
    ['delete-user', { password: PASSWORD }],
    ['link-social', { provider: 'github' }],
    ['unlink-account', { providerId: 'credential' }],
    ['one-time-token/generate', undefined],
  ])('refuses /%s to a key with 403 CREDENTIAL_NOT_ALLOWED, changing nothing', async (path, json) => {
    const { auth } = setup({ oneTimeToken: true })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const response = await auth.handler(keyed(`/api/auth/${path}`, await userId(auth, 'ada@example.com'), json === undefined ? {} : { json, headers: { origin: BASE } }))
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ code: 'CREDENTIAL_NOT_ALLOWED', message: 'This action needs a signed-in session' })
    // The password and the browser's session are as they were.
    const session = await browserAnswer(await auth.handler(authed('/api/auth/get-session', cookie)))
    expect(session.body.user.email).toBe('ada@example.com')
    const signIn = await auth.handler(request('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password: PASSWORD }, headers: { origin: BASE } }))
    expect(signIn.status).toBe(200)
  })

  it('refuses the delete-user link to a key, redirecting with the code when the link names a callback', async () => {
    const { auth } = setup({ user: { deleteUser: { enabled: true, sendDeleteAccountVerification: () => undefined } } })
    await signUp(auth, { email: 'ada@example.com' })
    const response = await auth.handler(keyed('/api/auth/delete-user/callback?token=abc&callbackURL=/bye', await userId(auth, 'ada@example.com')))
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/bye?error=CREDENTIAL_NOT_ALLOWED')
    const found = await findUserByEmail((await auth.$context).db, 'ada@example.com')
    expect(found).not.toBeNull()
  })

  it('is not asked on cookieOnly routes', async () => {
    const calls = { count: 0 }
    const auth = accountAuth({
      plugins: [
        testKeyPlugin(calls),
        definePlugin({
          id: 'browser-only',
          endpoints: {
            whoami: {
              kind: 'endpoint',
              method: 'GET',
              path: '/whoami',
              metadata: { cookieOnly: true },
              use: [optionalSessionMiddleware],
              handler: (ctx: { session: { user: { email: string } } | null }) => ({ email: ctx.session?.user.email ?? null }),
            },
          },
        }),
      ],
    })
    await signUp(auth, { email: 'ada@example.com' })
    const answer = await browserAnswer(await auth.handler(keyed('/api/auth/whoami', await userId(auth, 'ada@example.com'))))
    expect(answer.body).toEqual({ email: null })
    expect(calls.count).toBe(0)
  })
})

describe('bearer session tokens', () => {
  const bearerAuth = (options: Parameters<typeof accountAuth>[0] = {}) => accountAuth({ bearer: true, ...options })

  it('hands the session token out in set-auth-token at sign-up and sign-in, exposed to scripts', async () => {
    const auth = bearerAuth()
    const { response } = await signUp(auth, { email: 'ada@example.com' })
    const token = response.headers.get('set-auth-token')
    expect(token).toMatch(/^[^.]+\.[^.]+$/)
    expect(response.headers.get('access-control-expose-headers')).toContain('set-auth-token')
    const signIn = await auth.handler(request('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password: PASSWORD } }))
    expect(signIn.headers.get('set-auth-token')).toMatch(/^[^.]+\.[^.]+$/)
  })

  it('sets no set-auth-token without the option, nor on a sign-out that clears the cookie', async () => {
    const plain = accountAuth()
    const { response, cookie } = await signUp(plain, { email: 'ada@example.com' })
    expect(response.headers.get('set-auth-token')).toBeNull()
    const auth = bearerAuth()
    const signedUp = await signUp(auth, { email: 'bob@example.com' })
    const out = await auth.handler(authed('/api/auth/sign-out', signedUp.cookie, { method: 'POST' }))
    expect(out.status).toBe(200)
    expect(out.headers.get('set-auth-token')).toBeNull()
    expect(cookie).not.toBe('')
  })

  it('serves a client without cookies: list-sessions, change-password and sign-out by the header alone, no Origin', async () => {
    const auth = bearerAuth()
    const { response } = await signUp(auth, { email: 'ada@example.com' })
    const token = response.headers.get('set-auth-token') as string
    const bearer = { authorization: `Bearer ${token}` }

    const listed = await browserAnswer(await auth.handler(request('/api/auth/list-sessions', { headers: bearer })))
    expect(listed.status).toBe(200)
    expect(listed.body).toHaveLength(1)

    // A bearer token is the session itself, so it may change the password (with the current one, as always).
    const changed = await auth.handler(
      request('/api/auth/change-password', { json: { currentPassword: PASSWORD, newPassword: 'another long password', revokeOtherSessions: true }, headers: bearer }),
    )
    expect(changed.status).toBe(200)
    const fresh = changed.headers.get('set-auth-token') as string
    expect(fresh).toMatch(/^[^.]+\.[^.]+$/)

    const out = await auth.handler(request('/api/auth/sign-out', { method: 'POST', headers: { authorization: `Bearer ${fresh}` } }))
    expect(out.status).toBe(200)
    const after = await browserAnswer(await auth.handler(request('/api/auth/get-session', { headers: { authorization: `Bearer ${fresh}` } })))
    expect(after.body).toBeNull()
  })

  it('ignores a token whose signature does not verify, and a bare unsigned token', async () => {
    const auth = bearerAuth()
    const { response, cookie } = await signUp(auth, { email: 'ada@example.com' })
    const token = response.headers.get('set-auth-token') as string
    const [raw] = token.split('.')
    for (const forged of [`${raw}.AAAA`, raw as string, `${raw}x.${token.split('.')[1]}`]) {
      const answer = await browserAnswer(await auth.handler(request('/api/auth/get-session', { headers: { authorization: `Bearer ${forged}` } })))
      expect(answer.body).toBeNull()
    }
    // A header that does not verify leaves the browser's own cookie session as it was.
    const both = await browserAnswer(await auth.handler(authed('/api/auth/get-session', cookie, { headers: { authorization: 'Bearer nonsense' } })))
    expect(both.body.user.email).toBe('ada@example.com')
  })

  it('refuses the token of a revoked session, and leaves a browser cookie alone when it does', async () => {
    const auth = bearerAuth()
    const mobile = await signUp(auth, { email: 'ada@example.com' })
    const token = mobile.response.headers.get('set-auth-token') as string
    const web = await auth.handler(request('/api/auth/sign-in/email', { json: { email: 'ada@example.com', password: PASSWORD }, headers: { origin: BASE } }))
    const webCookie = (await browserAnswer(web)).cookie
    const revoked = await auth.handler(authed('/api/auth/revoke-other-sessions', webCookie, { method: 'POST' }))
    expect(revoked.status).toBe(200)
    const answer = await browserAnswer(await auth.handler(authed('/api/auth/get-session', webCookie, { headers: { authorization: `Bearer ${token}` } })))
    expect(answer.body).toBeNull()
    // No cookie was cleared on the bearer's account: the browser's session is not the revoked one.
    expect(answer.setCookies).toEqual([])
  })

  it('does nothing without the option', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const token = decodeURIComponent(cookie.split('; ').find((pair) => pair.includes('session_token='))?.split('=')[1] ?? '')
    const answer = await browserAnswer(await auth.handler(request('/api/auth/get-session', { headers: { authorization: `Bearer ${token}` } })))
    expect(answer.body).toBeNull()
  })

  it('refreshes a session past updateAge through the header, answering the token again', async () => {
    const auth = bearerAuth({ session: { updateAge: 60 } })
    const { response } = await signUp(auth, { email: 'ada@example.com' })
    const token = response.headers.get('set-auth-token') as string
    auth.clock.advance(120_000)
    const refreshed = await auth.handler(request('/api/auth/get-session', { headers: { authorization: `Bearer ${token}` } }))
    expect(refreshed.status).toBe(200)
    expect(refreshed.headers.get('set-auth-token')).toBe(token)
  })
})

describe('one-time tokens', () => {
  const ottAuth = (options: Parameters<typeof accountAuth>[0] = {}) => accountAuth({ oneTimeToken: true, ...options })

  async function generate(auth: ReturnType<typeof ottAuth>, cookie: string): Promise<string> {
    const answer = await browserAnswer(await auth.handler(authed('/api/auth/one-time-token/generate', cookie)))
    expect(answer.status).toBe(200)
    return answer.body.token as string
  }

  const verify = (auth: ReturnType<typeof ottAuth>, token: string, origin = BASE) =>
    auth.handler(request('/api/auth/one-time-token/verify', { json: { token }, headers: { origin } }))

  it('hands the session to another browser once: cookie set, session answered, the second use refused', async () => {
    const auth = ottAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const token = await generate(auth, cookie)
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/)
    const first = await browserAnswer(await verify(auth, token))
    expect(first.status).toBe(200)
    expect(first.body.user.email).toBe('ada@example.com')
    // The new browser reads the same session with the cookie it was given.
    const session = await browserAnswer(await auth.handler(authed('/api/auth/get-session', first.cookie)))
    expect(session.body.user.email).toBe('ada@example.com')
    const original = await browserAnswer(await auth.handler(authed('/api/auth/get-session', cookie)))
    expect(session.body.session.id).toBe(original.body.session.id)

    const again = await verify(auth, token)
    expect(again.status).toBe(400)
    expect(await again.json()).toMatchObject({ code: 'INVALID_ONE_TIME_TOKEN', message: 'Invalid token' })
  })

  it('lets exactly one of twenty parallel redemptions win', async () => {
    const auth = ottAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const token = await generate(auth, cookie)
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(auth, token)))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(19)
  })

  it('stores neither the token nor the session token: a hashed identifier and a sealed value', async () => {
    const auth = ottAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const token = await generate(auth, cookie)
    const context = await auth.$context
    const rows = await context.db.findMany<{ identifier: string; value: string }>({ model: 'verification' })
    const row = rows.find((entry) => entry.identifier.startsWith('one-time-token:'))
    expect(row).toBeDefined()
    expect(row?.identifier).not.toContain(token)
    const sessionToken = decodeURIComponent(cookie.split('; ').find((pair) => pair.includes('session_token='))?.split('=')[1] ?? '').split('.')[0] as string
    expect(row?.value).not.toContain(sessionToken)
    expect(row?.value).toMatch(/^v1\./)
  })

  it('refuses a token whose session was revoked meanwhile, and one past its three minutes', async () => {
    const auth = ottAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const revokedToken = await generate(auth, cookie)
    const late = await generate(auth, cookie)
    auth.clock.advance(181_000)
    const expired = await verify(auth, late)
    expect(await expired.json()).toMatchObject({ code: 'INVALID_ONE_TIME_TOKEN' })

    const other = await generate(auth, cookie)
    await auth.handler(authed('/api/auth/sign-out', cookie, { method: 'POST' }))
    const gone = await verify(auth, other)
    expect(gone.status).toBe(400)
    expect(await gone.json()).toMatchObject({ code: 'ONE_TIME_TOKEN_SESSION_NOT_FOUND', message: 'Session not found' })
    expect(revokedToken).not.toBe(other)
  })

  it('holds verify to the origin check (a cross-site page cannot sign a visitor into its own session)', async () => {
    const auth = ottAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const token = await generate(auth, cookie)
    const refused = await verify(auth, token, 'https://attacker.example')
    expect(refused.status).toBe(403)
    expect(refused.headers.getSetCookie()).toEqual([])
    // Refused before the consume: the token still works from a trusted origin.
    expect((await verify(auth, token)).status).toBe(200)
  })

  it('answers 404 without the option, and 400 to requests with disableClientRequest while the server API still makes tokens', async () => {
    const off = accountAuth()
    const signedUp = await signUp(off, { email: 'ada@example.com' })
    expect((await off.handler(authed('/api/auth/one-time-token/generate', signedUp.cookie))).status).toBe(404)

    const auth = ottAuth({ oneTimeToken: { disableClientRequest: true } })
    const { cookie } = await signUp(auth, { email: 'bob@example.com' })
    const refused = await auth.handler(authed('/api/auth/one-time-token/generate', cookie))
    expect(refused.status).toBe(400)
    expect(await refused.json()).toMatchObject({ code: 'ONE_TIME_TOKEN_CLIENT_REQUESTS_DISABLED' })
    const { token } = await auth.api.generateOneTimeToken({ headers: { cookie } })
    expect((await verify(auth, token)).status).toBe(200)
  })

  it('works for a bearer client: generated with the header, redeemed in a browser', async () => {
    const auth = ottAuth({ bearer: true })
    const { response } = await signUp(auth, { email: 'ada@example.com' })
    const bearer = response.headers.get('set-auth-token') as string
    const generated = await browserAnswer(await auth.handler(request('/api/auth/one-time-token/generate', { headers: { authorization: `Bearer ${bearer}` } })))
    expect(generated.status).toBe(200)
    const redeemed = await browserAnswer(await verify(auth, generated.body.token))
    expect(redeemed.body.user.email).toBe('ada@example.com')
    expect(redeemed.cookie).toContain('session_token=')
  })
})

describe('the error catalogue', () => {
  it('names the credential refusal', () => {
    expect(CoreErrors.CREDENTIAL_NOT_ALLOWED).toMatchObject({ status: 403, message: 'This action needs a signed-in session' })
  })
})
