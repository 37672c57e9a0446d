/**
 * The leading library's own client plugins drive the example server
 * unchanged (issue 36; docs/api-key.md#client, docs/jwt.md#client,
 * docs/sessions.md#one-time-tokens): `createAuthClient` from
 * `better-auth/client` with `apiKeyClient()` (`@better-auth/api-key/client`),
 * `jwtClient()`, `oneTimeTokenClient()` and, for issue 37 (docs/username.md),
 * `usernameClient()`, `emailOTPClient()`, `phoneNumberClient()`, `anonymousClient()` and (MULTI_SESSION=1)
 * `multiSessionClient()` (`better-auth/client/plugins`),
 * all 1.7.5, over HTTP to the running server with a cookie jar that sends
 * Origin on writes, as a browser on the app's origin would. With BEARER=1 a
 * client without cookies signs in and works by `set-auth-token` alone.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { apiKeyClient } from '@better-auth/api-key/client'
import { createAuthClient } from 'better-auth/client'
import { anonymousClient, emailOTPClient, jwtClient, multiSessionClient, oneTimeTokenClient, phoneNumberClient, usernameClient } from 'better-auth/client/plugins'
import { createLocalJWKSet, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from '../src/server.js'
import { startExample } from './harness.js'

const PASSWORD = 'correct horse battery'

/** A fetch with a cookie jar: the cookies the server set go back on the next call, Origin on writes. */
function browserFetch(base: () => string) {
  const jar = new Map<string, string>()
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const headers = new Headers(request.headers)
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '))
    if (request.method !== 'GET') headers.set('origin', base())
    const body = request.method === 'GET' ? undefined : await request.text()
    const response = await fetch(request.url, { method: request.method, headers, ...(body ? { body } : {}), redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const index = pair.indexOf('=')
      const name = pair.slice(0, index)
      const value = pair.slice(index + 1)
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name)
      else jar.set(name, value)
    }
    return response
  }
}

describe('better-auth client plugins against the example server', () => {
  let dir = ''
  let server: RunningServer

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-better-auth-'))
    server = await startExample(dir, { RATE_LIMIT: '0', MAIL_LOG: join(dir, 'mail.jsonl'), SMS_LOG: join(dir, 'sms.jsonl') })
  })
  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  /** The last code MAIL_LOG holds for `to`; the mails sent after their answer may take a moment. */
  async function codeFor(to: string, otpType: string): Promise<string> {
    for (let attempt = 0; attempt < 1000; attempt += 1) {
      const text = await readFile(join(dir, 'mail.jsonl'), 'utf8').catch(() => '')
      const mails = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { type: string; to: string; otp?: string; otpType?: string })
      const found = mails.reverse().find((mail) => mail.type === 'email-otp' && mail.to === to && mail.otpType === otpType)
      if (found?.otp) return found.otp
      await new Promise((resolve) => setImmediate(resolve))
    }
    throw new Error(`no ${otpType} code for ${to}`)
  }

  /** The last SMS_LOG code for `to` of `type`. */
  async function textFor(to: string, type: string): Promise<string> {
    for (let attempt = 0; attempt < 1000; attempt += 1) {
      const text = await readFile(join(dir, 'sms.jsonl'), 'utf8').catch(() => '')
      const messages = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { to: string; code: string; type: string })
      const found = messages.reverse().find((sms) => sms.to === to && sms.type === type)
      if (found) return found.code
      await new Promise((resolve) => setImmediate(resolve))
    }
    throw new Error(`no ${type} text for ${to}`)
  }

  function client() {
    return createAuthClient({
      baseURL: `${server.url}/api/auth`,
      plugins: [apiKeyClient(), jwtClient(), oneTimeTokenClient(), usernameClient(), emailOTPClient(), phoneNumberClient(), anonymousClient()],
      fetchOptions: { customFetchImpl: browserFetch(() => server.url) },
    })
  }

  it('apiKeyClient: create, list, get, update, delete; the key works from a script until deleted', async () => {
    const ada = client()
    expect((await ada.signUp.email({ name: 'Ada', email: 'ada@ba-clients.test', password: PASSWORD })).error).toBeNull()
    const created = await ada.apiKey.create({ name: 'cli', expiresIn: 7 * 86_400 })
    expect(created.error).toBeNull()
    const key = created.data?.key ?? ''
    expect(key).toMatch(/^[A-Za-z]{64}$/)
    expect((await ada.apiKey.list()).data).toMatchObject({ total: 1, apiKeys: [{ name: 'cli' }] })
    expect((await ada.apiKey.get({ query: { id: created.data?.id ?? '' } })).data).not.toHaveProperty('key')
    expect((await ada.apiKey.update({ keyId: created.data?.id ?? '', enabled: false })).data?.enabled).toBe(false)
    const disabled = await fetch(`${server.url}/api/auth/get-session`, { headers: { 'x-api-key': key } })
    expect(((await disabled.json()) as { code: string }).code).toBe('KEY_DISABLED')
    await ada.apiKey.update({ keyId: created.data?.id ?? '', enabled: true })
    const session = await fetch(`${server.url}/api/auth/get-session`, { headers: { 'x-api-key': key } })
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe('ada@ba-clients.test')
    expect((await ada.apiKey.delete({ keyId: created.data?.id ?? '' })).data).toEqual({ success: true })
    expect((await fetch(`${server.url}/api/auth/get-session`, { headers: { 'x-api-key': key } })).status).toBe(401)
  })

  it('jwtClient: token() and jwks(); the token verifies with the key set alone', async () => {
    const grace = client()
    await grace.signUp.email({ name: 'Grace', email: 'grace@ba-clients.test', password: PASSWORD })
    const token = await grace.token()
    expect(token.error).toBeNull()
    const jwks = await grace.jwks()
    expect(jwks.error).toBeNull()
    const { payload } = await jwtVerify(token.data?.token ?? '', createLocalJWKSet(jwks.data as { keys: [] }), { issuer: server.url, audience: server.url })
    expect(payload.email).toBe('grace@ba-clients.test')
  })

  it('usernameClient: sign up with a username, check availability, sign in by it in another case', async () => {
    const lin = client()
    const signedUp = await lin.signUp.email({ name: 'Lin', email: 'lin@ba-clients.test', password: PASSWORD, username: 'Lin.Wei' })
    expect(signedUp.error).toBeNull()
    expect(signedUp.data?.user).toMatchObject({ username: 'lin.wei', displayUsername: 'Lin.Wei' })
    expect((await lin.isUsernameAvailable({ username: 'LIN.WEI' })).data).toEqual({ available: false })
    expect((await lin.isUsernameAvailable({ username: 'someone.else' })).data).toEqual({ available: true })
    const taken = await client().signUp.email({ name: 'Copy', email: 'copy@ba-clients.test', password: PASSWORD, username: 'lin.wei' })
    expect(taken.error).toMatchObject({ status: 400, code: 'USERNAME_IS_ALREADY_TAKEN' })
    const other = client()
    expect((await other.signIn.username({ username: 'lin.wei', password: 'wrong password' })).error).toMatchObject({ status: 401, code: 'INVALID_USERNAME_OR_PASSWORD' })
    const signedIn = await other.signIn.username({ username: 'LIN.WEI', password: PASSWORD })
    expect(signedIn.error).toBeNull()
    expect((await other.getSession()).data?.user).toMatchObject({ email: 'lin@ba-clients.test', username: 'lin.wei' })
    expect((await other.updateUser({ username: 'lin' })).error).toBeNull()
    expect((await other.getSession({ query: { disableCookieCache: true } })).data?.user).toMatchObject({ username: 'lin', displayUsername: 'lin' })
  })

  it('emailOTPClient: a code signs a new address up, verifies, resets the password and changes the address', async () => {
    const kim = client()
    expect((await kim.emailOtp.sendVerificationOtp({ email: 'kim@ba-clients.test', type: 'sign-in' })).data).toEqual({ success: true })
    const signedIn = await kim.signIn.emailOtp({ email: 'kim@ba-clients.test', otp: await codeFor('kim@ba-clients.test', 'sign-in') })
    expect(signedIn.error).toBeNull()
    expect((await kim.getSession()).data?.user).toMatchObject({ email: 'kim@ba-clients.test', emailVerified: true })
    const wrong = await kim.signIn.emailOtp({ email: 'kim@ba-clients.test', otp: '000000' })
    expect(wrong.error).toMatchObject({ status: 400, code: 'INVALID_OTP' })

    expect((await kim.emailOtp.requestPasswordReset({ email: 'kim@ba-clients.test' })).data).toEqual({ success: true })
    const reset = await kim.emailOtp.resetPassword({ email: 'kim@ba-clients.test', otp: await codeFor('kim@ba-clients.test', 'forget-password'), password: PASSWORD })
    expect(reset.data).toEqual({ success: true })
    const back = client()
    expect((await back.signIn.email({ email: 'kim@ba-clients.test', password: PASSWORD })).error).toBeNull()

    expect((await back.emailOtp.requestEmailChange({ newEmail: 'kim.new@ba-clients.test' })).data).toEqual({ success: true })
    const changed = await back.emailOtp.changeEmail({ newEmail: 'kim.new@ba-clients.test', otp: await codeFor('kim.new@ba-clients.test', 'change-email') })
    expect(changed.data).toEqual({ success: true })
    expect((await back.getSession({ query: { disableCookieCache: true } })).data?.user.email).toBe('kim.new@ba-clients.test')

    const lee = client()
    await lee.signUp.email({ name: 'Lee', email: 'lee@ba-clients.test', password: PASSWORD })
    await lee.emailOtp.sendVerificationOtp({ email: 'lee@ba-clients.test', type: 'email-verification' })
    const verified = await lee.emailOtp.verifyEmail({ email: 'lee@ba-clients.test', otp: await codeFor('lee@ba-clients.test', 'email-verification') })
    expect(verified.data).toMatchObject({ status: true, user: { emailVerified: true } })
  })

  it('phoneNumberClient: a texted code signs a number up, the number and password sign in, a reset by SMS', async () => {
    const phone = client()
    expect((await phone.phoneNumber.sendOtp({ phoneNumber: '+1 415 555 0199' })).data).toEqual({ message: 'code sent' })
    const verified = await phone.phoneNumber.verify({ phoneNumber: '+14155550199', code: await textFor('+14155550199', 'verification') })
    expect(verified.error).toBeNull()
    expect(verified.data?.user).toMatchObject({ phoneNumber: '+14155550199', phoneNumberVerified: true })
    expect((await phone.getSession()).data?.user.phoneNumber).toBe('+14155550199')
    const wrong = await client().phoneNumber.verify({ phoneNumber: '+14155550199', code: '000000' })
    expect(wrong.error).toMatchObject({ status: 400 })

    const noah = client()
    await noah.signUp.email({ name: 'Noah', email: 'noah@ba-clients.test', password: PASSWORD })
    await noah.phoneNumber.sendOtp({ phoneNumber: '+33612345678' })
    const added = await noah.phoneNumber.verify({ phoneNumber: '+33612345678', code: await textFor('+33612345678', 'verification'), updatePhoneNumber: true })
    expect(added.data?.user).toMatchObject({ email: 'noah@ba-clients.test', phoneNumber: '+33612345678' })
    const again = client()
    expect((await again.signIn.phoneNumber({ phoneNumber: '+33 6 12 34 56 78', password: PASSWORD })).error).toBeNull()
    expect((await again.getSession()).data?.user.email).toBe('noah@ba-clients.test')
    expect((await again.phoneNumber.requestPasswordReset({ phoneNumber: '+33612345678' })).data).toEqual({ status: true })
    const reset = await again.phoneNumber.resetPassword({ phoneNumber: '+33612345678', otp: await textFor('+33612345678', 'password-reset'), newPassword: 'another long password' })
    expect(reset.data).toEqual({ status: true })
    expect((await client().signIn.phoneNumber({ phoneNumber: '+33612345678', password: 'another long password' })).error).toBeNull()
  })

  it('anonymousClient: a guest creates an organization, signs up, and keeps it; the guest is gone', async () => {
    const guest = client()
    const signedIn = await guest.signIn.anonymous()
    expect(signedIn.error).toBeNull()
    expect(signedIn.data?.user).toMatchObject({ isAnonymous: true })
    const guestId = signedIn.data!.user.id
    const created = await guest.$fetch<{ id: string }>('/organization/create', { method: 'POST', body: { name: 'Guest shop', slug: 'guest-shop-ba' } })
    expect(created.error).toBeNull()
    expect((await guest.signUp.email({ name: 'Olu', email: 'olu@ba-clients.test', password: PASSWORD })).error).toBeNull()
    const session = await guest.getSession()
    expect(session.data?.user).toMatchObject({ email: 'olu@ba-clients.test', isAnonymous: false })
    const organizations = await guest.$fetch<{ id: string }[]>('/organization/list', { method: 'GET' })
    expect(organizations.data?.map((organization) => organization.id)).toContain(created.data?.id)
    const { db } = await server.auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: guestId } })).toBeNull()
  })

  it('oneTimeTokenClient: generate in one browser, verify in another, which then holds the session', async () => {
    const first = client()
    await first.signUp.email({ name: 'Ida', email: 'ida@ba-clients.test', password: PASSWORD })
    const generated = await first.oneTimeToken.generate()
    expect(generated.error).toBeNull()
    const second = client()
    const verified = await second.oneTimeToken.verify({ token: generated.data?.token ?? '' })
    expect(verified.error).toBeNull()
    expect((await second.getSession()).data?.user.email).toBe('ida@ba-clients.test')
    const again = await client().oneTimeToken.verify({ token: generated.data?.token ?? '' })
    expect(again.error?.status).toBe(400)
  })
})

describe('BEARER=1: a client without cookies', () => {
  let dir = ''
  let server: RunningServer

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-bearer-'))
    server = await startExample(dir, { RATE_LIMIT: '0', BEARER: '1' })
  })
  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it("signs up, keeps set-auth-token and works by Authorization: Bearer alone, as better-auth's bearer docs show", async () => {
    let token = ''
    const mobile = createAuthClient({
      baseURL: `${server.url}/api/auth`,
      fetchOptions: {
        // No cookie jar at all: the token is all the app keeps.
        auth: { type: 'Bearer', token: () => token },
        onSuccess: (context) => {
          const handed = context.response.headers.get('set-auth-token')
          if (handed) token = handed
        },
      },
    })
    const signUp = await mobile.signUp.email({ name: 'Mo', email: 'mo@bearer.test', password: PASSWORD })
    expect(signUp.error).toBeNull()
    expect(token).toMatch(/^[^.]+\.[^.]+$/)
    expect((await mobile.getSession()).data?.user.email).toBe('mo@bearer.test')
    expect((await mobile.listSessions()).data).toHaveLength(1)
    expect((await mobile.signOut()).error).toBeNull()
    expect((await mobile.getSession()).data).toBeNull()
  })
})

describe('MULTI_SESSION=1: multiSessionClient', () => {
  let dir = ''
  let server: RunningServer

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-multi-'))
    server = await startExample(dir, { RATE_LIMIT: '0', MULTI_SESSION: '1' })
  })
  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('two accounts in one browser: list, switch, revoke one, sign out the rest', async () => {
    const browser = createAuthClient({
      baseURL: `${server.url}/api/auth`,
      plugins: [multiSessionClient()],
      fetchOptions: { customFetchImpl: browserFetch(() => server.url) },
    })
    await browser.signUp.email({ name: 'Work', email: 'work@multi.test', password: PASSWORD })
    await browser.signUp.email({ name: 'Home', email: 'home@multi.test', password: PASSWORD })
    const listed = await browser.multiSession.listDeviceSessions()
    expect(listed.error).toBeNull()
    expect(listed.data?.map((entry) => entry.user.email).sort()).toEqual(['home@multi.test', 'work@multi.test'])
    const work = listed.data!.find((entry) => entry.user.email === 'work@multi.test')!
    expect((await browser.multiSession.setActive({ sessionToken: work.session.token })).error).toBeNull()
    expect((await browser.getSession()).data?.user.email).toBe('work@multi.test')
    expect((await browser.multiSession.revoke({ sessionToken: work.session.token })).data).toEqual({ status: true })
    expect((await browser.getSession()).data?.user.email).toBe('home@multi.test')
    await browser.signOut()
    expect((await browser.multiSession.listDeviceSessions()).data).toEqual([])
  })
})
