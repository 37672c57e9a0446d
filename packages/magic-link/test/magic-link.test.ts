/**
 * The magic-link flow through `auth.handler`: the request answers the same
 * for every address, the mailed link signs in (creating the user when
 * sign-up is allowed) exactly once, and every failure redirects with its code.
 */
import { sha256Base64url } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { signUp } from '../../core/test/accounts.js'
import { request } from '../../core/test/helpers.js'
import { BASE, getSession, linkAuth, linkParams, openLink, requestLink, type LinkAuth } from './fixtures.js'

async function verificationRows(auth: LinkAuth) {
  const { db } = await auth.$context
  return db.findMany<{ identifier: string; value: string; expiresAt: Date }>({ model: 'verification' })
}

async function userByEmail(auth: LinkAuth, email: string) {
  const { db } = await auth.$context
  return db.findOne<{ id: string; email: string; name: string; emailVerified: boolean }>({ model: 'user', where: { field: 'email', value: email } })
}

async function sessionCount(auth: LinkAuth, userId: string) {
  const { db } = await auth.$context
  return db.count({ model: 'session', where: { field: 'userId', value: userId } })
}

describe('POST /sign-in/magic-link', () => {
  it('mails a link with a 32-character token, stored only as its SHA-256 under the magic-link prefix', async () => {
    const auth = linkAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const reply = await requestLink(auth, { email: 'Ada@Example.com', callbackURL: '/dashboard' })
    expect(reply).toEqual({ status: 200, body: { status: true } })

    expect(auth.links).toHaveLength(1)
    const mail = auth.lastLink()!
    expect(mail.email).toBe('ada@example.com')
    expect(mail.token).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(mail.url).toBe(`${BASE}/api/auth/magic-link/verify?token=${mail.token}&callbackURL=%2Fdashboard`)

    const rows = (await verificationRows(auth)).filter((row) => row.identifier.startsWith('magic-link:'))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.identifier).toBe(`magic-link:${sha256Base64url(mail.token)}`)
    expect(JSON.stringify(rows[0])).not.toContain(mail.token)
    expect(rows[0]!.expiresAt.getTime() - auth.clock.now().getTime()).toBe(300_000)
  })

  it('answers a known and an unknown address alike, storing a token for each', async () => {
    const auth = linkAuth()
    await signUp(auth, { email: 'known@example.com' })
    const known = await requestLink(auth, { email: 'known@example.com' })
    const unknown = await requestLink(auth, { email: 'nobody@example.com' })
    expect(unknown).toEqual(known)
    expect(auth.links.map((mail) => mail.email)).toEqual(['known@example.com', 'nobody@example.com'])
    expect((await verificationRows(auth)).filter((row) => row.identifier.startsWith('magic-link:'))).toHaveLength(2)
  })

  it('with sign-up off, an unknown address gets the same answer and a stored token, but no mail', async () => {
    const auth = linkAuth({ disableSignUp: true })
    await signUp(auth, { email: 'known@example.com' })
    const unknown = await requestLink(auth, { email: 'nobody@example.com' })
    const known = await requestLink(auth, { email: 'known@example.com' })
    expect(unknown).toEqual({ status: 200, body: { status: true } })
    expect(known).toEqual(unknown)
    await auth.idle()
    expect(auth.links.map((mail) => mail.email)).toEqual(['known@example.com'])
    expect((await verificationRows(auth)).filter((row) => row.identifier.startsWith('magic-link:'))).toHaveLength(2)
  })

  it('carries newUserCallbackURL and errorCallbackURL in the link', async () => {
    const auth = linkAuth()
    await requestLink(auth, { email: 'new@example.com', callbackURL: '/home', newUserCallbackURL: '/welcome', errorCallbackURL: '/oops' })
    const params = linkParams(auth.lastLink()!.url)
    expect(Object.fromEntries(params)).toEqual({
      token: auth.lastLink()!.token,
      callbackURL: '/home',
      newUserCallbackURL: '/welcome',
      errorCallbackURL: '/oops',
    })
  })

  it('refuses an invalid email with 400 and stores nothing', async () => {
    const auth = linkAuth()
    const reply = await requestLink(auth, { email: 'not-an-email' })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ code: 'INVALID_EMAIL', message: 'Invalid email' })
    expect(await verificationRows(auth)).toHaveLength(0)
    expect(auth.links).toHaveLength(0)
  })

  it.each([
    ['callbackURL', 'Invalid callbackURL'],
    ['newUserCallbackURL', 'Invalid newUserCallbackURL'],
    ['errorCallbackURL', 'Invalid errorCallbackURL'],
  ])('refuses an untrusted %s with 403 before any work', async (field, message) => {
    const auth = linkAuth()
    for (const target of ['https://evil.test/x', '//evil.test', '/\\evil.test']) {
      const reply = await requestLink(auth, { email: 'ada@example.com', [field]: target })
      expect(reply.status).toBe(403)
      expect(reply.body).toMatchObject({ message })
    }
    expect(await verificationRows(auth)).toHaveLength(0)
    expect(auth.links).toHaveLength(0)
  })

  it('accepts an absolute callbackURL on a trusted origin', async () => {
    const auth = linkAuth({}, { trustedOrigins: ['https://app.test'] })
    const reply = await requestLink(auth, { email: 'ada@example.com', callbackURL: 'https://app.test/after' })
    expect(reply.status).toBe(200)
    const opened = await openLink(auth, auth.lastLink()!.url)
    expect(opened.location).toBe('https://app.test/after')
  })

  it('answers 500 when the mail callback fails, and deletes the token', async () => {
    const auth = linkAuth({
      sendMagicLink: () => {
        throw new Error('SMTP down')
      },
    })
    const reply = await requestLink(auth, { email: 'ada@example.com' })
    expect(reply.status).toBe(500)
    expect(reply.body).toMatchObject({ code: 'FAILED_TO_SEND_EMAIL' })
    expect(await verificationRows(auth)).toHaveLength(0)
  })

  it('is limited like the other mail-sending routes: the fourth request in 10 seconds gets 429', async () => {
    const auth = linkAuth({}, { rateLimit: { enabled: true } })
    const ip = { 'x-forwarded-for': '203.0.113.9' }
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await requestLink(auth, { email: `u${i}@example.com` }, ip)).status)
    expect(statuses).toEqual([200, 200, 200, 429])
    expect(auth.links).toHaveLength(3)
    auth.clock.advance(10_000)
    expect((await requestLink(auth, { email: 'later@example.com' }, ip)).status).toBe(200)
  })
})

describe('with sign-up off, no timing oracle (docs/magic-link.md#security)', () => {
  /** Lets `turns` turns of the event loop pass: "a while", counted in turns rather than milliseconds. */
  async function turns(count: number) {
    for (let turn = 0; turn < count; turn++) await new Promise<void>((resolve) => setImmediate(resolve))
  }

  /** A mail callback that never finishes until the test opens its gate. */
  function slowMailer() {
    const log: string[] = []
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    let started!: () => void
    const running = new Promise<void>((resolve) => (started = resolve))
    const sendMagicLink = async (mail: { email: string }) => {
      log.push(`started ${mail.email}`)
      started()
      await gate
      log.push(`sent ${mail.email}`)
    }
    return { log, sendMagicLink, running, open }
  }

  /** POST /sign-in/magic-link, noting in `log` when the answer arrived. */
  async function ask(auth: LinkAuth, log: string[], email: string) {
    const response = await auth.handler(request('/api/auth/sign-in/magic-link', { json: { email }, headers: { origin: BASE } }))
    log.push(`answered ${email}`)
    // Cookie names only: the link binding's value names the address asked for, whichever it is (core's link-binding).
    return { status: response.status, body: await response.json(), cookies: response.headers.getSetCookie().map((line) => line.split('=')[0]) }
  }

  it('answers a known address without waiting for the mail callback, as it answers an unknown one', async () => {
    const mailer = slowMailer()
    const auth = linkAuth({ disableSignUp: true, sendMagicLink: mailer.sendMagicLink })
    await signUp(auth, { email: 'known@example.com' })

    const known = ask(auth, mailer.log, 'known@example.com')
    // Either the answer comes while the callback is held, or it is stuck behind it: the oracle.
    const first = await Promise.race([known.then(() => 'answered'), mailer.running.then(() => turns(50)).then(() => 'waiting for the mail')])
    mailer.open()
    expect(first).toBe('answered')
    const unknown = await ask(auth, mailer.log, 'nobody@example.com')
    expect(await known).toEqual(unknown)
    expect(unknown).toEqual({ status: 200, body: { status: true }, cookies: ['gatehouse.link_binding'] })

    await auth.idle()
    // Both answers came before the callback even started; the unknown address got none at all.
    expect(mailer.log.indexOf('answered known@example.com')).toBeLessThan(mailer.log.indexOf('started known@example.com'))
    expect(mailer.log.filter((line) => line.startsWith('started') || line.startsWith('sent'))).toEqual(['started known@example.com', 'sent known@example.com'])
  })

  it('a failing mail callback is not answered 500 (that too would tell known addresses): logged, and the token deleted', async () => {
    const logs: string[] = []
    const auth = linkAuth(
      {
        disableSignUp: true,
        sendMagicLink: () => {
          throw new Error('SMTP down')
        },
      },
      { logger: { level: 'debug', log: (_level, message) => void logs.push(message) } },
    )
    await signUp(auth, { email: 'known@example.com' })
    const known = await requestLink(auth, { email: 'known@example.com' })
    const unknown = await requestLink(auth, { email: 'nobody@example.com' })
    expect(known).toEqual({ status: 200, body: { status: true } })
    expect(unknown).toEqual(known)
    await auth.idle()
    expect(logs).toContain('mail callback failed')
    const rows = (await verificationRows(auth)).filter((row) => row.identifier.startsWith('magic-link:'))
    // The unknown address's token stays (unmailed, it expires); the one whose mail failed is gone.
    expect(rows.map((row) => JSON.parse(row.value).email)).toEqual(['nobody@example.com'])
  })
})

describe('GET /magic-link/verify', () => {
  it('signs a known user in, marks the address verified and redirects to the callbackURL', async () => {
    const auth = linkAuth()
    const { body } = await signUp(auth, { email: 'ada@example.com' })
    expect((await userByEmail(auth, 'ada@example.com'))!.emailVerified).toBe(false)
    const before = await sessionCount(auth, body.user.id)
    await requestLink(auth, { email: 'ada@example.com', callbackURL: '/dashboard', newUserCallbackURL: '/welcome' })

    const opened = await openLink(auth, auth.lastLink()!.url)
    expect(opened.status).toBe(302)
    expect(opened.location).toBe('/dashboard')
    const tokenCookie = opened.setCookies.find((line) => line.startsWith('gatehouse.session_token='))
    expect(tokenCookie).toMatch(/Max-Age=\d+/)
    expect(tokenCookie).toMatch(/HttpOnly/i)
    // The first proof of the mailbox ends the session of the sign-up made before it (see the next test).
    expect(before).toBe(1)
    expect(await sessionCount(auth, body.user.id)).toBe(1)
    expect((await userByEmail(auth, 'ada@example.com'))!.emailVerified).toBe(true)

    const session = await getSession(auth, opened.cookie)
    expect(session.user).toMatchObject({ id: body.user.id, email: 'ada@example.com', emailVerified: true })
    expect((await verificationRows(auth)).filter((row) => row.identifier.startsWith('magic-link:'))).toHaveLength(0)
  })

  it('pre-registration: the link ends what a squatter of the unverified address set up (session, password)', async () => {
    const auth = linkAuth()
    const squatter = await signUp(auth, { email: 'victim@example.com', password: 'squatter password 1' })
    expect((await getSession(auth, squatter.cookie)).user.email).toBe('victim@example.com')

    await requestLink(auth, { email: 'victim@example.com', callbackURL: '/dashboard' })
    const opened = await openLink(auth, auth.lastLink()!.url)
    expect(opened.location).toBe('/dashboard')
    expect((await getSession(auth, opened.cookie)).user).toMatchObject({ email: 'victim@example.com', emailVerified: true })
    expect(await getSession(auth, squatter.cookie)).toBeNull()
    const { db } = await auth.$context
    expect(await db.findMany({ model: 'account' })).toEqual([])
    const signIn = await auth.handler(
      request('/api/auth/sign-in/email', { json: { email: 'victim@example.com', password: 'squatter password 1' }, headers: { origin: BASE } }),
    )
    expect(signIn.status).toBe(401)
  })

  it('a verified user’s link keeps their other sessions and password', async () => {
    const auth = linkAuth()
    const owner = await signUp(auth, { email: 'owner@example.com' })
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: owner.body.user.id }, update: { emailVerified: true } })
    await requestLink(auth, { email: 'owner@example.com' })
    expect((await openLink(auth, auth.lastLink()!.url)).status).toBe(302)
    expect((await getSession(auth, owner.cookie)).user.email).toBe('owner@example.com')
    expect(await sessionCount(auth, owner.body.user.id)).toBe(2)
    expect(await db.findMany({ model: 'account' })).toHaveLength(1)
  })

  it('creates an unknown user with the name given, verified, and redirects to the newUserCallbackURL', async () => {
    const auth = linkAuth()
    await requestLink(auth, { email: 'New@Example.com', name: 'Grace Hopper', callbackURL: '/home', newUserCallbackURL: '/welcome' })
    const opened = await openLink(auth, auth.lastLink()!.url)
    expect(opened.location).toBe('/welcome')
    const user = await userByEmail(auth, 'new@example.com')
    expect(user).toMatchObject({ email: 'new@example.com', name: 'Grace Hopper', emailVerified: true })
    expect(await sessionCount(auth, user!.id)).toBe(1)
    const { db } = await auth.$context
    // No password, no credential account: the mailbox is the credential.
    expect(await db.count({ model: 'account', where: { field: 'userId', value: user!.id } })).toBe(0)
    expect((await getSession(auth, opened.cookie)).user.id).toBe(user!.id)
  })

  it('a new user without a newUserCallbackURL goes to the callbackURL, and to / without either', async () => {
    const auth = linkAuth()
    await requestLink(auth, { email: 'a@example.com', callbackURL: '/home' })
    expect((await openLink(auth, auth.lastLink()!.url)).location).toBe('/home')
    await requestLink(auth, { email: 'b@example.com' })
    expect((await openLink(auth, auth.lastLink()!.url)).location).toBe('/')
  })

  it('works once: the second opening redirects with invalid_token and makes no session', async () => {
    const auth = linkAuth()
    await requestLink(auth, { email: 'ada@example.com', callbackURL: '/dashboard' })
    const url = auth.lastLink()!.url
    expect((await openLink(auth, url)).location).toBe('/dashboard')
    const again = await openLink(auth, url)
    expect(again.status).toBe(302)
    expect(again.location).toBe('/dashboard?error=invalid_token')
    expect(again.setCookies.filter((line) => line.includes('session_token=') && !/Max-Age=0/i.test(line))).toHaveLength(0)
    const user = await userByEmail(auth, 'ada@example.com')
    expect(await sessionCount(auth, user!.id)).toBe(1)
  })

  it('sends errors to the errorCallbackURL when there is one, else the error page', async () => {
    const auth = linkAuth()
    await requestLink(auth, { email: 'ada@example.com', callbackURL: '/dashboard', errorCallbackURL: '/sign-in' })
    const url = auth.lastLink()!.url
    await openLink(auth, url)
    expect((await openLink(auth, url)).location).toBe('/sign-in?error=invalid_token')
    expect((await openLink(auth, `${BASE}/api/auth/magic-link/verify?token=nope`)).location).toBe(`${BASE}/api/auth/error?error=invalid_token`)
    expect((await openLink(auth, `${BASE}/api/auth/magic-link/verify`)).location).toBe(`${BASE}/api/auth/error?error=invalid_token`)
  })

  it('expires after 5 minutes with token_expired, and the expired token is gone', async () => {
    const auth = linkAuth()
    await requestLink(auth, { email: 'early@example.com', callbackURL: '/in' })
    const early = auth.lastLink()!.url
    await requestLink(auth, { email: 'late@example.com', callbackURL: '/in' })
    const late = auth.lastLink()!.url
    auth.clock.advance(299_000)
    expect((await openLink(auth, early)).location).toBe('/in')
    auth.clock.advance(1_000)
    const expired = await openLink(auth, late)
    expect(expired.location).toBe('/in?error=token_expired')
    expect(await userByEmail(auth, 'late@example.com')).toBeNull()
    expect((await verificationRows(auth)).filter((row) => row.identifier.startsWith('magic-link:'))).toHaveLength(0)
  })

  it('honours expiresIn', async () => {
    const auth = linkAuth({ expiresIn: 60 })
    await requestLink(auth, { email: 'ada@example.com', callbackURL: '/in' })
    auth.clock.advance(60_000)
    expect((await openLink(auth, auth.lastLink()!.url)).location).toBe('/in?error=token_expired')
  })

  it('with sign-up off, a link whose user no longer exists redirects with signup_disabled and creates nobody', async () => {
    const auth = linkAuth({ disableSignUp: true })
    const { body } = await signUp(auth, { email: 'gone@example.com' })
    await requestLink(auth, { email: 'gone@example.com', callbackURL: '/in' })
    await auth.idle()
    const { db } = await auth.$context
    await db.delete({ model: 'session', where: { field: 'userId', value: body.user.id } })
    await db.delete({ model: 'account', where: { field: 'userId', value: body.user.id } })
    await db.delete({ model: 'user', where: { field: 'id', value: body.user.id } })
    const opened = await openLink(auth, auth.lastLink()!.url)
    expect(opened.location).toBe('/in?error=signup_disabled')
    expect(await userByEmail(auth, 'gone@example.com')).toBeNull()
    expect(await db.count({ model: 'session' })).toBe(0)
  })

  it('a vetoed user creation redirects with unable_to_create_user and leaves the token unused', async () => {
    let veto = true
    const auth = linkAuth(
      {},
      {
        databaseHooks: {
          user: {
            create: {
              before: () => {
                if (veto) throw new Error('not today')
              },
            },
          },
        },
      },
    )
    await requestLink(auth, { email: 'vetoed@example.com', callbackURL: '/in' })
    const url = auth.lastLink()!.url
    expect((await openLink(auth, url)).location).toBe('/in?error=unable_to_create_user')
    expect(await userByEmail(auth, 'vetoed@example.com')).toBeNull()
    expect((await verificationRows(auth)).filter((row) => row.identifier.startsWith('magic-link:'))).toHaveLength(1)
    veto = false
    expect((await openLink(auth, url)).location).toBe('/in')
    expect(await userByEmail(auth, 'vetoed@example.com')).not.toBeNull()
  })

  it('checks the redirect targets again: a link edited to an untrusted target is refused with 403 and stays usable', async () => {
    const auth = linkAuth()
    await requestLink(auth, { email: 'ada@example.com', callbackURL: '/in' })
    const url = new URL(auth.lastLink()!.url)
    for (const field of ['callbackURL', 'newUserCallbackURL', 'errorCallbackURL']) {
      const edited = new URL(url)
      edited.searchParams.set(field, 'https://evil.test/steal')
      const opened = await openLink(auth, edited.toString())
      expect(opened.status).toBe(403)
      expect(await opened.response.json()).toMatchObject({ message: `Invalid ${field}` })
    }
    expect((await openLink(auth, url.toString())).location).toBe('/in')
  })

  it('is purpose-bound: a reset token is no magic link, and a magic-link token resets no password', async () => {
    const auth = linkAuth()
    await signUp(auth, { email: 'ada@example.com' })
    await auth.handler(request('/api/auth/request-password-reset', { json: { email: 'ada@example.com' }, headers: { origin: BASE } }))
    const reset = auth.mailbox.last('reset-password')!
    const asLink = await openLink(auth, `${BASE}/api/auth/magic-link/verify?token=${reset.token}&callbackURL=/in`)
    expect(asLink.location).toBe('/in?error=invalid_token')

    await requestLink(auth, { email: 'ada@example.com' })
    const link = auth.lastLink()!
    const asReset = await auth.handler(
      request('/api/auth/reset-password', { json: { token: link.token, newPassword: 'another long password' }, headers: { origin: BASE } }),
    )
    expect(asReset.status).toBe(400)
    const peek = await auth.handler(request(`/api/auth/reset-password/${link.token}?callbackURL=/reset`))
    expect(peek.headers.get('location')).toBe('/reset?error=INVALID_TOKEN')
    // Both tokens still work for their own flows.
    expect((await openLink(auth, link.url)).location).toBe('/')
    const resetDone = await auth.handler(
      request('/api/auth/reset-password', { json: { token: reset.token, newPassword: 'another long password' }, headers: { origin: BASE } }),
    )
    expect(resetDone.status).toBe(200)
  })

  it('twenty parallel openings of one link make exactly one session', async () => {
    const auth = linkAuth()
    await requestLink(auth, { email: 'race@example.com', callbackURL: '/in' })
    const url = auth.lastLink()!.url
    const results = await Promise.all(Array.from({ length: 20 }, () => openLink(auth, url)))
    expect(results.filter((result) => result.location === '/in')).toHaveLength(1)
    expect(results.filter((result) => result.location === '/in?error=invalid_token')).toHaveLength(19)
    const user = await userByEmail(auth, 'race@example.com')
    expect(await sessionCount(auth, user!.id)).toBe(1)
    const { db } = await auth.$context
    expect(await db.count({ model: 'user', where: { field: 'email', value: 'race@example.com' } })).toBe(1)
  })
})

describe('auth.api', () => {
  it('signInMagicLink and magicLinkVerify are on the server api', async () => {
    const auth = linkAuth()
    await expect(auth.api.signInMagicLink({ body: { email: 'api@example.com' } })).resolves.toEqual({ status: true })
    const token = auth.lastLink()!.token
    const response = await auth.api.magicLinkVerify({ query: { token, callbackURL: '/in' }, asResponse: true })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/in')
  })
})
