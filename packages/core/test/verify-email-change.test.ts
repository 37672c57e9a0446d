import { jwtVerify, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { GatehouseOptions } from '../src/options.js'
import { hashSessionToken } from '../src/session/session-store.js'
import { memoryStorage } from '../src/storage/memory-storage.js'
import { signEmailChangeToken, signEmailToken } from '../src/verification/email-token.js'
import { accountAuth, authed, cookieHeader, signUp } from './accounts.js'
import { BASE, request } from './helpers.js'
import { backendDialects, createTestBackend, type TestBackend } from './kysely-backends.js'

/** verify-email with a change-confirmation token: the second step of change-email (docs/accounts.md#changing-the-email). */

type Auth = ReturnType<typeof accountAuth>
type Options = Parameters<typeof accountAuth>[0] & object

async function users(auth: Auth) {
  return (await auth.$context).adapter.findMany({ model: 'user', sortBy: { field: 'email', direction: 'asc' } })
}

async function verifiedUser(auth: Auth, email: string) {
  const up = await signUp(auth, { email })
  await (await auth.$context).adapter.update({ model: 'user', where: { field: 'email', value: email }, update: { emailVerified: true } })
  return up
}

async function changeToken(auth: Auth, email: string, updateTo: string) {
  return signEmailChangeToken(await auth.$context, { email, updateTo }, 3600)
}

function verify(auth: Auth, token: string, callbackURL?: string, cookie?: string) {
  const query = new URLSearchParams({ token })
  if (callbackURL !== undefined) query.set('callbackURL', callbackURL)
  const path = `/api/auth/verify-email?${query.toString()}`
  return auth.handler(cookie === undefined ? request(path) : authed(path, cookie))
}

function verificationMails(auth: Auth) {
  return auth.mailbox.mails.filter((mail) => mail.kind === 'verify-email')
}

/** An auth with change-email on whose confirmation mails are captured, as the app configures it. */
function changeAuth(options: Options = {}) {
  const confirmations: { to: string; url: string; token: string }[] = []
  const sendChangeEmailVerification: NonNullable<NonNullable<GatehouseOptions['user']>['changeEmail']>['sendChangeEmailVerification'] = ({
    user,
    url,
    token,
  }) => {
    confirmations.push({ to: user.email, url, token })
  }
  const auth = accountAuth({ ...options, user: { changeEmail: { enabled: true, sendChangeEmailVerification } } })
  return Object.assign(auth, { confirmations })
}

/** Ada (verified) asks to move to new@example.com; returns her cookie and the confirmation link mailed to her current address. */
async function requestedChange(auth: ReturnType<typeof changeAuth>, callbackURL = '/done') {
  const ada = await verifiedUser(auth, 'ada@example.com')
  const response = await auth.handler(
    authed('/api/auth/change-email', ada.cookie, { method: 'POST', json: { newEmail: 'new@example.com', callbackURL } }),
  )
  expect(response.status).toBe(200)
  const mail = auth.confirmations.at(-1)
  if (!mail) throw new Error('no confirmation mail')
  return { cookie: ada.cookie, id: ada.body.user.id as string, url: mail.url, token: mail.token }
}

describe('GET /verify-email with a change confirmation, from the owner\'s session', () => {
  it('moves the email, marks it unverified and mails a verification link to the new address', async () => {
    const after = vi.fn()
    const auth = accountAuth({ emailVerification: { afterEmailVerification: after, autoSignInAfterVerification: true } })
    const { body: signedUp, cookie } = await verifiedUser(auth, 'ada@example.com')
    const sessionsBefore = (await (await auth.$context).adapter.findMany({ model: 'session' })).length

    const response = await verify(auth, await changeToken(auth, 'ada@example.com', 'New@Example.com'), '/email-changed', cookie)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/email-changed')
    expect(await users(auth)).toEqual([
      expect.objectContaining({ id: signedUp.user.id, email: 'new@example.com', emailVerified: false }),
    ])
    const mail = auth.mailbox.last('verify-email')
    expect(mail?.to).toBe('new@example.com')
    expect(new URL(mail?.url ?? '').searchParams.get('callbackURL')).toBe('/email-changed')
    // The address is not verified yet: no callback, and no new session from a change link.
    expect(after).not.toHaveBeenCalled()
    // No session cookie; only the link binding of the verification mail just sent (docs/security.md#login-csrf).
    expect(response.headers.getSetCookie().map((line) => line.split('=')[0])).toEqual(['gatehouse.link_binding'])
    expect(await (await auth.$context).adapter.findMany({ model: 'session' })).toHaveLength(sessionsBefore)

    // The link mailed to the new address proves that mailbox: it needs no session (another device may open it).
    const confirmed = await auth.handler(new Request(mail?.url ?? ''))
    expect(confirmed.status).toBe(302)
    expect(confirmed.headers.get('location')).toBe('/email-changed')
    expect((await users(auth))[0]).toMatchObject({ email: 'new@example.com', emailVerified: true })
    expect(after).toHaveBeenCalledTimes(1)
  })

  it('answers {status, user} with the new email when there is no callbackURL', async () => {
    const auth = accountAuth()
    const { cookie } = await verifiedUser(auth, 'ada@example.com')
    const response = await verify(auth, await changeToken(auth, 'ada@example.com', 'new@example.com'), undefined, cookie)
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({ status: true, user: { email: 'new@example.com', emailVerified: false } })
  })

  it('applies once: the replayed link finds no user holding the old address', async () => {
    const auth = accountAuth()
    const { cookie } = await verifiedUser(auth, 'ada@example.com')
    const token = await changeToken(auth, 'ada@example.com', 'new@example.com')
    expect((await verify(auth, token, undefined, cookie)).status).toBe(200)
    const replay = await verify(auth, token, '/done', cookie)
    expect(replay.headers.get('location')).toBe('/done?error=user_not_found')
    expect(verificationMails(auth)).toHaveLength(1)
  })

  it('twenty concurrent follows by the owner change the email once and send one mail', async () => {
    const auth = accountAuth()
    const { cookie } = await verifiedUser(auth, 'ada@example.com')
    const token = await changeToken(auth, 'ada@example.com', 'new@example.com')
    const responses = await Promise.all(Array.from({ length: 20 }, () => verify(auth, token, undefined, cookie)))
    await expectOneChange(responses)
    expect(verificationMails(auth)).toHaveLength(1)
    expect((await users(auth)).map((user) => [user.email, user.emailVerified])).toEqual([['new@example.com', false]])
  })

  it('an address taken since the request is refused with email_already_exists; nothing changes', async () => {
    const auth = accountAuth()
    const { cookie } = await verifiedUser(auth, 'ada@example.com')
    const token = await changeToken(auth, 'ada@example.com', 'taken@example.com')
    await signUp(auth, { email: 'taken@example.com' })

    const redirected = await verify(auth, token, '/done?x=1', cookie)
    expect(redirected.headers.get('location')).toBe('/done?x=1&error=email_already_exists')
    const direct = await verify(auth, token, undefined, cookie)
    expect(direct.status).toBe(401)
    expect(await direct.json()).toEqual({ code: 'UNAUTHORIZED', message: 'email_already_exists' })
    expect((await users(auth)).map((user) => [user.email, user.emailVerified])).toEqual([
      ['ada@example.com', true],
      ['taken@example.com', false],
    ])
    expect(auth.mailbox.mails).toHaveLength(0)
  })

  it('a failing mail to the new address puts the old address back', async () => {
    const auth = accountAuth({
      emailVerification: {
        sendVerificationEmail: () => {
          throw new Error('smtp down')
        },
      },
    })
    const { cookie } = await verifiedUser(auth, 'ada@example.com')
    const token = await changeToken(auth, 'ada@example.com', 'new@example.com')

    const direct = await verify(auth, token, undefined, cookie)
    expect(direct.status).toBe(500)
    expect(await direct.json()).toEqual({ code: 'FAILED_TO_SEND_EMAIL', message: 'Failed to send email' })
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: true })

    // From a mailed link the browser lands on the app, and the link still works once mail is back.
    const redirected = await verify(auth, token, '/done', cookie)
    expect(redirected.status).toBe(302)
    expect(redirected.headers.get('location')).toBe('/done?error=internal_server_error')
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: true })
  })

  it('refreshes the caller\'s cookie cache and the secondary-storage copies with the new email', async () => {
    const storage = memoryStorage()
    const auth = accountAuth({ secondaryStorage: storage, session: { cookieCache: { enabled: true } } })
    const { cookie, body } = await verifiedUser(auth, 'ada@example.com')
    const response = await verify(auth, await changeToken(auth, 'ada@example.com', 'new@example.com'), undefined, cookie)
    expect(response.status).toBe(200)

    const read = async (header: string) => (await (await auth.handler(authed('/api/auth/get-session', header))).json()).user
    expect((await read(cookieHeader(response, cookie))).email).toBe('new@example.com')
    const stored = JSON.parse((await storage.get(`session:${hashSessionToken(body.token)}`)) ?? 'null')
    expect(stored.user).toMatchObject({ email: 'new@example.com', emailVerified: false })
  })

  it('a token whose updateTo is no valid address, or the current one, is invalid_token', async () => {
    const auth = accountAuth()
    const { cookie } = await verifiedUser(auth, 'ada@example.com')
    for (const updateTo of ['not-an-email', 'ADA@example.com']) {
      const response = await verify(auth, await changeToken(auth, 'ada@example.com', updateTo), '/done', cookie)
      expect(response.headers.get('location')).toBe('/done?error=invalid_token')
    }
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: true })
  })
})

/** Exactly one 200; the others found the old address gone (401 user_not_found), none failed. */
async function expectOneChange(responses: Response[]) {
  expect(responses.filter((response) => response.status === 200)).toHaveLength(1)
  for (const response of responses.filter((each) => each.status !== 200)) {
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ code: 'UNAUTHORIZED', message: 'user_not_found' })
  }
}

describe('GET /verify-email with a change confirmation acts only for its owner', () => {
  it('nobody signed in: 401 "Unauthorized" or error=unauthorized; nothing changes and the owner can still confirm', async () => {
    const auth = changeAuth()
    const ada = await requestedChange(auth)
    const before = await users(auth)

    const direct = await verify(auth, ada.token)
    expect(direct.status).toBe(401)
    expect(await direct.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' })
    const redirected = await verify(auth, ada.token, '/done?tab=email')
    expect(redirected.status).toBe(302)
    expect(redirected.headers.get('location')).toBe('/done?tab=email&error=unauthorized')
    expect(redirected.headers.getSetCookie()).toEqual([])
    expect(await users(auth)).toEqual(before)
    expect(verificationMails(auth)).toHaveLength(0)

    const own = await verify(auth, ada.token, '/done', ada.cookie)
    expect(own.headers.get('location')).toBe('/done')
    expect((await users(auth)).map((user) => user.email)).toEqual(['new@example.com'])
  })

  it('a mail scanner prefetching the mailed link (GET, no cookies) changes nothing; the owner follows it afterwards', async () => {
    const auth = changeAuth()
    const ada = await requestedChange(auth)
    const before = await users(auth)
    for (let i = 0; i < 3; i++) {
      const prefetch = await auth.handler(new Request(ada.url))
      expect(prefetch.status).toBe(302)
      expect(prefetch.headers.get('location')).toBe('/done?error=unauthorized')
    }
    expect(await users(auth)).toEqual(before)
    expect(verificationMails(auth)).toHaveLength(0)

    // Followed in the browser where she is signed in (a mail link sends no Origin header).
    const followed = await auth.handler(new Request(ada.url, { headers: { cookie: ada.cookie } }))
    expect(followed.status).toBe(302)
    expect(followed.headers.get('location')).toBe('/done')
    expect((await users(auth))[0]).toMatchObject({ id: ada.id, email: 'new@example.com', emailVerified: false })
    expect(verificationMails(auth).map((mail) => mail.to)).toEqual(['new@example.com'])
  })

  it('another user\'s session: invalid_token; neither user changes and the owner can still confirm', async () => {
    const auth = changeAuth()
    const ada = await requestedChange(auth)
    const eve = await verifiedUser(auth, 'eve@example.com')
    const before = await users(auth)

    const direct = await verify(auth, ada.token, undefined, eve.cookie)
    expect(direct.status).toBe(401)
    expect(await direct.json()).toEqual({ code: 'UNAUTHORIZED', message: 'invalid_token' })
    const forwarded = await auth.handler(new Request(ada.url, { headers: { cookie: eve.cookie } }))
    expect(forwarded.status).toBe(302)
    expect(forwarded.headers.get('location')).toBe('/done?error=invalid_token')
    expect(await users(auth)).toEqual(before)
    expect(verificationMails(auth)).toHaveLength(0)

    expect((await verify(auth, ada.token, undefined, ada.cookie)).status).toBe(200)
    expect((await users(auth)).map((user) => user.email)).toEqual(['eve@example.com', 'new@example.com'])
  })

  it('the session is read from the store: a revoked session\'s cached cookie does not confirm', async () => {
    const auth = changeAuth({ session: { cookieCache: { enabled: true } } })
    const ada = await requestedChange(auth)
    await (await auth.$context).adapter.deleteMany({ model: 'session', where: { field: 'userId', value: ada.id } })
    const response = await verify(auth, ada.token, '/done', ada.cookie)
    expect(response.headers.get('location')).toBe('/done?error=unauthorized')
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: true })
  })
})

describe('the two email tokens never stand in for each other', () => {
  it('a verification token never changes the address, even carrying updateTo under the verification key', async () => {
    const auth = accountAuth()
    const { cookie } = await verifiedUser(auth, 'ada@example.com')
    const context = await auth.$context

    const plain = await verify(auth, await signEmailToken(context, { email: 'ada@example.com' }, 3600), '/done', cookie)
    expect(plain.headers.get('location')).toBe('/done')
    // A token of the verification step that claims a change is refused outright, session or not.
    const now = Math.floor(auth.clock.now().getTime() / 1000)
    const crafted = await new SignJWT({ email: 'ada@example.com', updateTo: 'new@example.com' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(context.secrets.key('email-verification-jwt'))
    for (const session of [cookie, undefined]) {
      const response = await verify(auth, crafted, '/done', session)
      expect(response.headers.get('location')).toBe('/done?error=invalid_token')
    }
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: true })
    expect(auth.mailbox.mails).toHaveLength(0)
  })

  it('a confirmation token never verifies an address, and one without updateTo is refused', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const context = await auth.$context
    const now = Math.floor(auth.clock.now().getTime() / 1000)
    const bare = await new SignJWT({ email: 'ada@example.com' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(context.secrets.key('email-change-confirmation-jwt'))
    for (const session of [cookie, undefined]) {
      const response = await verify(auth, bare, '/done', session)
      expect(response.headers.get('location')).toBe('/done?error=invalid_token')
    }
    // A real confirmation for an unverified address is a change, never a verification of the current one.
    const confirmation = await changeToken(auth, 'ada@example.com', 'new@example.com')
    expect((await verify(auth, confirmation, '/done')).headers.get('location')).toBe('/done?error=unauthorized')
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: false })
  })

  it('change-email signs its confirmation under the confirmation key and the new-address mail under the verification key', async () => {
    const auth = changeAuth()
    const ada = await requestedChange(auth)
    const context = await auth.$context
    await expect(jwtVerify(ada.token, context.secrets.key('email-verification-jwt'))).rejects.toThrow()
    await expect(jwtVerify(ada.token, context.secrets.key('email-change-confirmation-jwt'), { currentDate: auth.clock.now() })).resolves.toBeTruthy()

    expect((await verify(auth, ada.token, undefined, ada.cookie)).status).toBe(200)
    const mail = auth.mailbox.last('verify-email')
    await expect(jwtVerify(mail?.token ?? '', context.secrets.key('email-change-confirmation-jwt'))).rejects.toThrow()
    // The new address's link, opened by another signed-in user, still only verifies that mailbox.
    const eve = await signUp(auth, { email: 'eve@example.com' })
    const verified = await auth.handler(new Request(mail?.url ?? '', { headers: { cookie: eve.cookie } }))
    expect(verified.status).toBe(302)
    expect(verified.headers.get('location')).toBe('/')
    expect((await users(auth)).map((user) => [user.email, user.emailVerified])).toEqual([
      ['eve@example.com', false],
      ['new@example.com', true],
    ])
  })
})

// On SQL backends the concurrent follows run on separate pooled connections and really interleave.
for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`change confirmation on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: Auth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = accountAuth({ database: backend.factory })
      await (await auth.$context).adapter.migrate?.()
    })
    afterAll(async () => {
      if (auth) await (await auth.$context).adapter.close?.()
      await backend?.drop()
    })

    it('twenty concurrent follows by the owner change the email once; without a session or from another user nothing changes', async () => {
      const current = auth
      if (!current) throw new Error('backend not ready')
      const ada = await verifiedUser(current, 'ada@example.com')
      const eve = await verifiedUser(current, 'eve@example.com')
      const token = await changeToken(current, 'ada@example.com', 'new@example.com')

      const refused = await Promise.all([
        ...Array.from({ length: 5 }, () => verify(current, token, '/done')),
        ...Array.from({ length: 5 }, () => verify(current, token, '/done', eve.cookie)),
      ])
      expect(refused.map((response) => response.headers.get('location'))).toEqual([
        ...Array.from({ length: 5 }, () => '/done?error=unauthorized'),
        ...Array.from({ length: 5 }, () => '/done?error=invalid_token'),
      ])
      expect((await users(current)).map((user) => user.email)).toEqual(['ada@example.com', 'eve@example.com'])

      const responses = await Promise.all(Array.from({ length: 20 }, () => verify(current, token, undefined, ada.cookie)))
      await expectOneChange(responses)
      expect(verificationMails(current)).toHaveLength(1)
      expect((await users(current)).map((user) => [user.email, user.emailVerified])).toEqual([
        ['eve@example.com', true],
        ['new@example.com', false],
      ])
    })
  })
}
