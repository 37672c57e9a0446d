import { describe, expect, it } from 'vitest'
import type { GatehouseOptions } from '../src/options.js'
import { verifyEmailToken } from '../src/verification/email-token.js'
import { accountAuth, authed, cookieHeader, PASSWORD, signIn, signUp } from './accounts.js'
import { BASE, request } from './helpers.js'

interface ChangeMail {
  readonly to: string
  readonly newEmail: string
  readonly url: string
  readonly token: string
}

type Options = Parameters<typeof accountAuth>[0] & object

const DAY = 24 * 60 * 60 * 1000

function setup(options: Options = {}, changeEmail: NonNullable<GatehouseOptions['user']>['changeEmail'] = {}) {
  const changeMails: ChangeMail[] = []
  const auth = accountAuth({
    ...options,
    user: {
      changeEmail: {
        enabled: true,
        sendChangeEmailVerification: ({ user, newEmail, url, token }) => {
          changeMails.push({ to: user.email, newEmail, url, token })
        },
        ...changeEmail,
      },
    },
  })
  return Object.assign(auth, { changeMails })
}

type Auth = ReturnType<typeof accountAuth>

async function users(auth: Auth) {
  return (await auth.$context).adapter.findMany({ model: 'user', sortBy: { field: 'email', direction: 'asc' } })
}

async function markVerified(auth: Auth, email: string) {
  await (await auth.$context).adapter.update({ model: 'user', where: { field: 'email', value: email }, update: { emailVerified: true } })
}

async function change(auth: Auth, cookie: string, json: unknown) {
  const response = await auth.handler(authed('/api/auth/change-email', cookie, { method: 'POST', json }))
  return { response, body: await response.clone().json() }
}

describe('POST /change-email: validation', () => {
  it('is 400 "Change email is disabled" unless enabled', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await change(auth, cookie, { newEmail: 'new@example.com' })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'CHANGE_EMAIL_DISABLED', message: 'Change email is disabled' })
    expect((await users(auth))[0]?.email).toBe('ada@example.com')
  })

  it('needs a session: 401', async () => {
    const auth = setup()
    await signUp(auth, { email: 'ada@example.com' })
    const response = await auth.handler(request('/api/auth/change-email', { json: { newEmail: 'new@example.com' } }))
    expect(response.status).toBe(401)
  })

  it.each([
    ['not-an-email', 'INVALID_EMAIL', 'Invalid email'],
    ['ADA@Example.com', 'EMAIL_IS_THE_SAME', 'Email is the same'],
    ['taken@example.com', 'COULDNT_UPDATE_EMAIL', "Couldn't update your email"],
  ])('newEmail %s is 400 %s and changes nothing', async (newEmail, code, message) => {
    const auth = setup()
    await signUp(auth, { email: 'taken@example.com' })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await change(auth, cookie, { newEmail })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code, message })
    expect((await users(auth)).map((user) => user.email)).toEqual(['ada@example.com', 'taken@example.com'])
    expect(auth.mailbox.mails.filter((mail) => mail.kind === 'verify-email')).toHaveLength(0)
    expect(auth.changeMails).toHaveLength(0)
  })

  it('an untrusted callbackURL is 403', async () => {
    const auth = setup()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await change(auth, cookie, { newEmail: 'new@example.com', callbackURL: 'https://evil.test/' })
    expect(response.status).toBe(403)
    expect(body.message).toBe('Invalid callbackURL')
    expect((await users(auth))[0]?.email).toBe('ada@example.com')
  })
})

describe('POST /change-email: current email unverified', () => {
  it('changes the email at once (unverified) and mails a verification link to the new address', async () => {
    const auth = setup({ session: { cookieCache: { enabled: true } } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await change(auth, cookie, { newEmail: 'Ada.New@Example.com', callbackURL: '/settings' })
    expect(response.status).toBe(200)
    expect(body).toEqual({ status: true })
    expect((await users(auth))[0]).toMatchObject({ email: 'ada.new@example.com', emailVerified: false })

    const mail = auth.mailbox.last('verify-email')
    expect(mail?.to).toBe('ada.new@example.com')
    const url = new URL(mail?.url ?? '')
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/api/auth/verify-email`)
    expect(url.searchParams.get('callbackURL')).toBe('/settings')
    expect(url.searchParams.get('token')).toBe(mail?.token)
    const claims = await verifyEmailToken(await auth.$context, mail?.token ?? '')
    expect(claims).toEqual({ ok: true, step: 'verification', claims: { email: 'ada.new@example.com' } })
    expect(auth.changeMails).toHaveLength(0)

    // The session refreshes: the re-issued cookie cache carries the new address.
    const session = await auth.handler(authed('/api/auth/get-session', cookieHeader(response, cookie)))
    expect((await session.json()).user.email).toBe('ada.new@example.com')
    // The old address no longer signs in, the new one does.
    expect((await signIn(auth, { email: 'ada@example.com' })).response.status).toBe(401)
    expect((await signIn(auth, { email: 'ada.new@example.com', password: PASSWORD })).response.status).toBe(200)
  })

  it('a failing verification mail puts the old address back: 500, nothing changed', async () => {
    const lines: string[] = []
    const auth = setup({
      logger: { level: 'debug', log: (level, message, meta) => lines.push(`${level} ${message} ${JSON.stringify(meta ?? {})}`) },
      emailVerification: {
        sendVerificationEmail: () => {
          throw new Error('smtp down')
        },
      },
    })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await change(auth, cookie, { newEmail: 'new@example.com' })
    expect(response.status).toBe(500)
    expect(body).toEqual({ code: 'FAILED_TO_SEND_EMAIL', message: 'Failed to send email' })
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: false })
    expect((await signIn(auth, { email: 'ada@example.com' })).response.status).toBe(200)
    expect(lines.join('\n')).toContain('mail callback failed')
    expect(lines.join('\n')).not.toMatch(/eyJ|correct horse/)
  })

  it('needs a fresh session: past freshAge 403 "Session is not fresh", nothing moved, no mail; freshAge 0 turns it off', async () => {
    const auth = setup()
    await signUp(auth, { email: 'taken@example.com' })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    // A session older than freshAge (1 day), still valid: what a thief of an old cookie holds.
    auth.clock.advance(2 * DAY)
    for (const newEmail of ['thief@example.com', 'taken@example.com']) {
      // Before the address is looked up: a stale session learns nothing about who is registered.
      const { response, body } = await change(auth, cookie, { newEmail })
      expect(response.status).toBe(403)
      expect(body).toEqual({ code: 'SESSION_NOT_FRESH', message: 'Session is not fresh' })
    }
    expect((await users(auth)).map((user) => user.email)).toEqual(['ada@example.com', 'taken@example.com'])
    expect(auth.mailbox.mails.filter((mail) => mail.kind === 'verify-email')).toHaveLength(0)
    // Signing in again (proving the password) makes a fresh session that may move it.
    const fresh = await signIn(auth, { email: 'ada@example.com' })
    expect((await change(auth, fresh.cookie, { newEmail: 'new@example.com' })).response.status).toBe(200)
    expect((await users(auth)).map((user) => user.email)).toEqual(['new@example.com', 'taken@example.com'])

    const off = setup({ session: { freshAge: 0 } })
    const ada = await signUp(off, { email: 'ada@example.com' })
    off.clock.advance(6 * DAY)
    expect((await change(off, ada.cookie, { newEmail: 'new@example.com' })).response.status).toBe(200)
  })

  it('two users racing for one new address: one wins, the other gets "Couldn\'t update your email"', async () => {
    const auth = setup()
    const a = await signUp(auth, { email: 'a@example.com' })
    const b = await signUp(auth, { email: 'b@example.com' })
    const results = await Promise.all([
      change(auth, a.cookie, { newEmail: 'prize@example.com' }),
      change(auth, b.cookie, { newEmail: 'prize@example.com' }),
    ])
    expect(results.map((result) => result.response.status).sort()).toEqual([200, 400])
    expect(results.find((result) => result.response.status === 400)?.body.code).toBe('COULDNT_UPDATE_EMAIL')
    const emails = (await users(auth)).map((user) => user.email)
    expect(emails.filter((email) => email === 'prize@example.com')).toHaveLength(1)
    expect(emails).toHaveLength(2)
  })
})

describe('POST /change-email: current email verified', () => {
  it('mails a confirmation to the current address; the change applies when its link is verified', async () => {
    const auth = setup()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    await markVerified(auth, 'ada@example.com')
    const { response, body } = await change(auth, cookie, { newEmail: 'new@example.com', callbackURL: '/done' })
    expect(response.status).toBe(200)
    expect(body).toEqual({ status: true })
    // Nothing changes until the owner of the current address confirms.
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: true })

    expect(auth.changeMails).toHaveLength(1)
    const mail = auth.changeMails[0] as ChangeMail
    expect(mail.to).toBe('ada@example.com')
    expect(mail.newEmail).toBe('new@example.com')
    const url = new URL(mail.url)
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/api/auth/verify-email`)
    expect(url.searchParams.get('token')).toBe(mail.token)
    expect(url.searchParams.get('callbackURL')).toBe('/done')
    const claims = await verifyEmailToken(await auth.$context, mail.token)
    expect(claims).toEqual({ ok: true, step: 'change-confirmation', claims: { email: 'ada@example.com', updateTo: 'new@example.com' } })

    // Only the signed-in owner confirms (see verify-email-change.test.ts for the refusals).
    expect((await auth.handler(request(`/api/auth/verify-email?token=${mail.token}`))).status).toBe(401)
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: true })
    const confirmed = await auth.handler(authed(`/api/auth/verify-email?token=${mail.token}`, cookie))
    expect(confirmed.status).toBe(200)
    expect((await users(auth))[0]).toMatchObject({ email: 'new@example.com', emailVerified: false })
    expect(auth.mailbox.last('verify-email')?.to).toBe('new@example.com')
  })

  it('needs no fresh session: an old session only asks the current address for confirmation', async () => {
    const auth = setup()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    await markVerified(auth, 'ada@example.com')
    auth.clock.advance(2 * DAY)
    const { response } = await change(auth, cookie, { newEmail: 'new@example.com' })
    expect(response.status).toBe(200)
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: true })
    expect(auth.changeMails.map((mail) => mail.to)).toEqual(['ada@example.com'])
  })

  it('without sendChangeEmailVerification: 400 "Verification email isn\'t enabled"', async () => {
    const auth = setup({}, { sendChangeEmailVerification: undefined })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    await markVerified(auth, 'ada@example.com')
    const { response, body } = await change(auth, cookie, { newEmail: 'new@example.com' })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'VERIFICATION_EMAIL_NOT_ENABLED', message: "Verification email isn't enabled" })
    expect((await users(auth))[0]?.email).toBe('ada@example.com')
  })

  it('a failing confirmation mail is 500 and changes nothing', async () => {
    const auth = setup(
      {},
      {
        sendChangeEmailVerification: () => {
          throw new Error('smtp down')
        },
      },
    )
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    await markVerified(auth, 'ada@example.com')
    const { response } = await change(auth, cookie, { newEmail: 'new@example.com' })
    expect(response.status).toBe(500)
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: true })
  })

  it('reads the user from the store, not the cookie cache (a verified user is not changed at once)', async () => {
    const auth = setup({ session: { cookieCache: { enabled: true } } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    // The cache cookie still says "unverified"; trusting it would move a verified address without confirmation.
    await markVerified(auth, 'ada@example.com')
    const { response } = await change(auth, cookie, { newEmail: 'new@example.com' })
    expect(response.status).toBe(200)
    expect((await users(auth))[0]).toMatchObject({ email: 'ada@example.com', emailVerified: true })
    expect(auth.changeMails).toHaveLength(1)
  })
})
