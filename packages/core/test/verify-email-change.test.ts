import { describe, expect, it, vi } from 'vitest'
import { memoryStorage } from '../src/storage/memory-storage.js'
import { hashSessionToken } from '../src/session/session-store.js'
import { signEmailToken } from '../src/verification/email-token.js'
import { accountAuth, authed, cookieHeader, signUp } from './accounts.js'
import { request } from './helpers.js'

/** verify-email with an `updateTo` claim: the second step of change-email (SPEC §4 "Email"). */

type Auth = ReturnType<typeof accountAuth>

async function users(auth: Auth) {
  return (await auth.$context).adapter.findMany({ model: 'user', sortBy: { field: 'email', direction: 'asc' } })
}

async function verifiedUser(auth: Auth, email: string) {
  const up = await signUp(auth, { email })
  await (await auth.$context).adapter.update({ model: 'user', where: { field: 'email', value: email }, update: { emailVerified: true } })
  return up
}

async function changeToken(auth: Auth, email: string, updateTo: string) {
  return signEmailToken(await auth.$context, { email, updateTo }, 3600)
}

function verify(auth: Auth, token: string, callbackURL?: string, cookie?: string) {
  const query = new URLSearchParams({ token })
  if (callbackURL !== undefined) query.set('callbackURL', callbackURL)
  const path = `/api/auth/verify-email?${query.toString()}`
  return auth.handler(cookie === undefined ? request(path) : authed(path, cookie))
}

describe('GET /verify-email with updateTo', () => {
  it('moves the email, marks it unverified and mails a verification link to the new address', async () => {
    const after = vi.fn()
    const auth = accountAuth({ emailVerification: { afterEmailVerification: after, autoSignInAfterVerification: true } })
    const { body: signedUp } = await verifiedUser(auth, 'ada@example.com')
    const sessionsBefore = (await (await auth.$context).adapter.findMany({ model: 'session' })).length

    const response = await verify(auth, await changeToken(auth, 'ada@example.com', 'New@Example.com'), '/email-changed')
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/email-changed')
    expect(await users(auth)).toEqual([
      expect.objectContaining({ id: signedUp.user.id, email: 'new@example.com', emailVerified: false }),
    ])
    const mail = auth.mailbox.last('verify-email')
    expect(mail?.to).toBe('new@example.com')
    expect(new URL(mail?.url ?? '').searchParams.get('callbackURL')).toBe('/email-changed')
    // The address is not verified yet: no callback, and no auto sign-in from a change link.
    expect(after).not.toHaveBeenCalled()
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await (await auth.$context).adapter.findMany({ model: 'session' })).toHaveLength(sessionsBefore)

    // The link mailed to the new address completes the change.
    const confirmed = await auth.handler(new Request(mail?.url ?? ''))
    expect(confirmed.status).toBe(302)
    expect((await users(auth))[0]).toMatchObject({ email: 'new@example.com', emailVerified: true })
    expect(after).toHaveBeenCalledTimes(1)
  })

  it('answers {status, user} with the new email when there is no callbackURL', async () => {
    const auth = accountAuth()
    await verifiedUser(auth, 'ada@example.com')
    const response = await verify(auth, await changeToken(auth, 'ada@example.com', 'new@example.com'))
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body).toMatchObject({ status: true, user: { email: 'new@example.com', emailVerified: false } })
  })

  it('applies once: the replayed link finds no user holding the old address', async () => {
    const auth = accountAuth()
    await verifiedUser(auth, 'ada@example.com')
    const token = await changeToken(auth, 'ada@example.com', 'new@example.com')
    expect((await verify(auth, token)).status).toBe(200)
    const replay = await verify(auth, token, '/done')
    expect(replay.headers.get('location')).toBe('/done?error=user_not_found')
    expect(auth.mailbox.mails.filter((mail) => mail.kind === 'verify-email')).toHaveLength(1)
  })

  it('two concurrent clicks change the email once and send one mail', async () => {
    const auth = accountAuth()
    await verifiedUser(auth, 'ada@example.com')
    const token = await changeToken(auth, 'ada@example.com', 'new@example.com')
    const results = await Promise.all([verify(auth, token), verify(auth, token)])
    expect(results.map((response) => response.status).sort()).toEqual([200, 401])
    expect(auth.mailbox.mails.filter((mail) => mail.kind === 'verify-email')).toHaveLength(1)
    expect((await users(auth)).map((user) => user.email)).toEqual(['new@example.com'])
  })

  it('an address taken since the request is refused with email_already_exists; nothing changes', async () => {
    const auth = accountAuth()
    await verifiedUser(auth, 'ada@example.com')
    const token = await changeToken(auth, 'ada@example.com', 'taken@example.com')
    await signUp(auth, { email: 'taken@example.com' })

    const redirected = await verify(auth, token, '/done?x=1')
    expect(redirected.headers.get('location')).toBe('/done?x=1&error=email_already_exists')
    const direct = await verify(auth, token)
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
    await verifiedUser(auth, 'ada@example.com')
    const token = await changeToken(auth, 'ada@example.com', 'new@example.com')

    const direct = await verify(auth, token)
    expect(direct.status).toBe(500)
    expect(await direct.json()).toEqual({ code: 'FAILED_TO_SEND_EMAIL', message: 'Failed to send email' })
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: true })

    // From a mailed link the browser lands on the app, and the link still works once mail is back.
    const redirected = await verify(auth, token, '/done')
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
    await verifiedUser(auth, 'ada@example.com')
    for (const updateTo of ['not-an-email', 'ADA@example.com']) {
      const response = await verify(auth, await changeToken(auth, 'ada@example.com', updateTo), '/done')
      expect(response.headers.get('location')).toBe('/done?error=invalid_token')
    }
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: true })
  })
})
