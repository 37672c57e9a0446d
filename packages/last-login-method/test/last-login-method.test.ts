/**
 * The method cookie through `auth.handler`: set by answers that set the
 * session cookie (sign-up, sign-in, callbacks), readable by scripts, scoped
 * like the session cookie, never set by a refused sign-in or a route that
 * signs nobody in; one method per route; the application's resolver and
 * consent check.
 */
import { describe, expect, it } from 'vitest'
import { captureLogs } from '../../core/test/capture-logs.js'
import { emailOTP } from '../../email-otp/src/index.js'
import { username } from '../../username/src/index.js'
import { lastLoginMethod } from '../src/plugin.js'
import { COOKIE, get, methodAuth, methodLine, methodSent, methodSet, PASSWORD, post, signUp, standIns } from './fixtures.js'

describe('the method cookie', () => {
  it('is set by a sign-up: readable by scripts, 30 days, scoped like the session cookie', async () => {
    const auth = methodAuth()
    const created = await signUp(auth)
    expect(created.status).toBe(200)
    expect(methodLine(created.setCookies)).toBe(`${COOKIE}=email; Max-Age=2592000; Path=/; SameSite=Lax`)
    const session = created.setCookies.find((line) => line.startsWith('gatehouse.session_token='))
    expect(session).toMatch(/; HttpOnly/)
    expect(methodLine(created.setCookies)).not.toMatch(/HttpOnly/i)
    expect(methodSent(created.cookie)).toBe('email')
  })

  it('is set by a password sign-in, and not by a refused one (nor is the one held changed)', async () => {
    const auth = methodAuth()
    const { email } = await signUp(auth)
    const signedIn = await post(auth, '/sign-in/email', { email, password: PASSWORD })
    expect(signedIn.status).toBe(200)
    expect(methodSet(signedIn.setCookies)).toBe('email')

    const refused = await post(auth, '/sign-in/email', { email, password: 'wrong password' }, `${COOKIE}=passkey`)
    expect(refused.status).toBe(401)
    expect(methodLine(refused.setCookies)).toBeUndefined()
    expect(methodSent(refused.cookie)).toBe('passkey')
    const unknown = await post(auth, '/sign-in/email', { email: 'nobody@example.com', password: PASSWORD })
    expect(unknown.status).toBe(401)
    expect(unknown.setCookies).toEqual([])
  })

  it('is left alone by routes that sign nobody in: get-session, update-user, sign-out', async () => {
    const auth = methodAuth()
    const created = await signUp(auth)
    expect(methodLine((await get(auth, '/get-session', created.cookie)).setCookies)).toBeUndefined()
    expect(methodLine((await post(auth, '/update-user', { name: 'Ada' }, created.cookie)).setCookies)).toBeUndefined()
    const signedOut = await post(auth, '/sign-out', {}, created.cookie)
    expect(signedOut.status).toBe(200)
    expect(methodLine(signedOut.setCookies)).toBeUndefined()
    // What the browser keeps across the sign-out: the point of the cookie.
    expect(methodSent(signedOut.cookie)).toBe('email')
  })

  it('is no credential: a POST without Origin that carries only it passes the origin check; one with a session cookie does not', async () => {
    const auth = methodAuth()
    const created = await signUp(auth)
    const signedOut = await post(auth, '/sign-out', {}, created.cookie)
    const hintOnly = signedOut.cookie
    expect(hintOnly).toBe(`${COOKIE}=email`)
    const script = (cookie: string) =>
      auth.handler(new Request('http://localhost:3000/api/auth/sign-in/email', { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ email: 'nobody@example.com', password: PASSWORD }) }))
    expect((await script(hintOnly)).status).toBe(401)
    expect((await script(`${hintOnly}; gatehouse.session_token=x`)).status).toBe(403)
  })

  it('follows the session cookie: Secure over HTTPS, the shared Domain, never the __Host- prefix', async () => {
    const auth = methodAuth({ core: { advanced: { useSecureCookies: true, crossSubDomainCookies: { enabled: true, domain: 'localhost' } } } })
    const created = await signUp(auth)
    const session = created.setCookies.find((line) => line.includes('gatehouse.session_token='))
    expect(session).toMatch(/^__Secure-gatehouse\.session_token=.*; Domain=localhost; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
    expect(methodLine(created.setCookies)).toBe(`${COOKIE}=email; Max-Age=2592000; Domain=localhost; Path=/; Secure; SameSite=Lax`)
  })

  it('takes its name and lifetime from the options, and refuses unusable ones at start-up', async () => {
    const auth = methodAuth({ lastLoginMethod: { cookieName: 'app.last_method', maxAge: 3600 } })
    const created = await signUp(auth)
    expect(methodLine(created.setCookies)).toBeUndefined()
    expect(methodLine(created.setCookies, 'app.last_method')).toBe('app.last_method=email; Max-Age=3600; Path=/; SameSite=Lax')
    expect(() => lastLoginMethod({ cookieName: 'bad name;' })).toThrow('is not a valid cookie name')
    expect(() => lastLoginMethod({ maxAge: 0 })).toThrow('maxAge')
    expect(() => lastLoginMethod({ maxAge: 401 * 24 * 3600 })).toThrow('maxAge')
  })

  it('comes with server-side api calls that return headers', async () => {
    const auth = methodAuth()
    const { email } = await signUp(auth)
    const { headers } = await auth.api.signInEmail({ body: { email, password: PASSWORD }, returnHeaders: true })
    expect(methodSet(headers.getSetCookie())).toBe('email')
  })
})

describe('the method of each route', () => {
  it('username: POST /sign-in/username', async () => {
    const auth = methodAuth({ plugins: [username()] })
    const created = await signUp(auth, { username: 'ada' })
    expect(methodSet(created.setCookies)).toBe('email')
    const signedIn = await post(auth, '/sign-in/username', { username: 'ada', password: PASSWORD })
    expect(signedIn.status).toBe(200)
    expect(methodSet(signedIn.setCookies)).toBe('username')
  })

  it('email-otp: POST /sign-in/email-otp, not the request for the code', async () => {
    const mails: { email: string; otp: string }[] = []
    const codes = emailOTP({ sendVerificationOTP: (mail) => void mails.push(mail) })
    const auth = methodAuth({ plugins: [codes] })
    const { email } = await signUp(auth)
    const asked = await post(auth, '/email-otp/send-verification-otp', { email, type: 'sign-in' })
    expect(asked.status).toBe(200)
    expect(methodLine(asked.setCookies)).toBeUndefined()
    await codes.idle()
    const otp = mails.find((mail) => mail.email === email)?.otp
    const signedIn = await post(auth, '/sign-in/email-otp', { email, otp })
    expect(signedIn.status).toBe(200)
    expect(methodSet(signedIn.setCookies)).toBe('email-otp')
  })

  it('anonymous and phone-number sign-ins, and a generic OAuth callback that answers with a redirect', async () => {
    const auth = methodAuth({ plugins: [standIns()] })
    expect(methodSet((await post(auth, '/sign-in/anonymous', {})).setCookies)).toBe('anonymous')
    const { email } = await signUp(auth)
    expect(methodSet((await post(auth, '/sign-in/phone-number', { email })).setCookies)).toBe('phone-number')
    const callback = await get(auth, `/oauth2/callback/acme-id?email=${encodeURIComponent(email)}`)
    expect(callback.status).toBe(302)
    expect(methodSet(callback.setCookies)).toBe('acme-id')
    // A callback that signs nobody in records nothing.
    const failed = await get(auth, '/oauth2/callback/acme-id?email=nobody%40example.com')
    expect(failed.status).toBe(302)
    expect(failed.setCookies).toEqual([])
  })
})

describe('customResolveMethod', () => {
  it('names the method first; null or undefined leaves it to the table', async () => {
    const seen: string[] = []
    const auth = methodAuth({
      plugins: [username()],
      lastLoginMethod: {
        customResolveMethod: (ctx) => {
          seen.push(ctx.path)
          return ctx.path === '/sign-in/username' ? 'staff-login' : null
        },
      },
    })
    const created = await signUp(auth, { username: 'grace' })
    expect(methodSet(created.setCookies)).toBe('email')
    expect(methodSet((await post(auth, '/sign-in/username', { username: 'grace', password: PASSWORD })).setCookies)).toBe('staff-login')
    // Asked once per sign-in, whoever asks first.
    expect(seen).toEqual(['/sign-up/email', '/sign-in/username'])
  })

  it('a value that is not a short token is not stored, and is logged without the value; a throw is logged too', async () => {
    for (const bad of ['Email', 'has space', '<img src=x>', 'ada@example.com', '', 'x'.repeat(65)]) {
      const logs = captureLogs()
      const auth = methodAuth({ core: { logger: logs.logger }, lastLoginMethod: { customResolveMethod: () => bad } })
      const created = await signUp(auth)
      expect(created.status).toBe(200)
      expect(methodLine(created.setCookies), bad).toBeUndefined()
      expect(logs.lines.some((line) => line.startsWith('warn lastLoginMethod: customResolveMethod answered a value'))).toBe(true)
      if (bad !== '') expect(logs.leaked(bad)).toEqual([])
    }
    const logs = captureLogs()
    const throwing = methodAuth({
      core: { logger: logs.logger },
      lastLoginMethod: {
        customResolveMethod: () => {
          throw new Error('resolver bug')
        },
      },
    })
    const created = await signUp(throwing)
    expect(created.status).toBe(200)
    expect(methodLine(created.setCookies)).toBeUndefined()
    expect(logs.lines.some((line) => line.startsWith('error lastLoginMethod: customResolveMethod threw'))).toBe(true)
  })
})

describe('beforeStoreCookie', () => {
  it('false, or a throw, and no cookie is set; the sign-in stands', async () => {
    const asked: string[] = []
    const refusing = methodAuth({
      lastLoginMethod: {
        beforeStoreCookie: (_ctx, method) => {
          asked.push(method)
          return false
        },
      },
    })
    const created = await signUp(refusing)
    expect(created.status).toBe(200)
    expect(methodLine(created.setCookies)).toBeUndefined()
    expect(asked).toEqual(['email'])
    const throwing = methodAuth({
      lastLoginMethod: {
        beforeStoreCookie: () => {
          throw new Error('consent service down')
        },
      },
    })
    const answer = await signUp(throwing)
    expect(answer.status).toBe(200)
    expect(methodLine(answer.setCookies)).toBeUndefined()
    const allowing = methodAuth({ lastLoginMethod: { beforeStoreCookie: async () => true } })
    expect(methodSet((await signUp(allowing)).setCookies)).toBe('email')
  })
})
