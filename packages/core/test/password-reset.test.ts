import { describe, expect, it, vi } from 'vitest'
import { sha256Base64url } from '../src/crypto/keys.js'
import { signEmailToken } from '../src/verification/email-token.js'
import { createVerificationToken } from '../src/verification/verification-token.js'
import { accountAuth, authed, PASSWORD, signIn, signUp } from './accounts.js'
import { captureLogs } from './capture-logs.js'
import { BASE, request } from './helpers.js'

type Auth = ReturnType<typeof accountAuth>

const NEW_PASSWORD = 'a brand new passphrase'
const MESSAGE = 'If this email exists in our system, check your email for the reset link'

async function rows(auth: Auth, model: string) {
  return (await auth.$context).adapter.findMany({ model })
}

async function requestReset(auth: Auth, json: unknown, path = '/api/auth/request-password-reset') {
  const response = await auth.handler(request(path, { json, headers: { origin: BASE } }))
  return { response, body: await response.clone().json() }
}

async function reset(auth: Auth, json: unknown, query = '') {
  const response = await auth.handler(request(`/api/auth/reset-password${query}`, { json, headers: { origin: BASE } }))
  return { response, body: await response.clone().json() }
}

/** Signs up ada, asks for a reset, returns the mailed token. */
async function mailedToken(auth: Auth, redirectTo?: string) {
  const up = await signUp(auth, { email: 'ada@example.com' })
  await requestReset(auth, { email: 'ada@example.com', redirectTo })
  return { ...up, token: auth.mailbox.last('reset-password')?.token ?? '' }
}

async function credentialPassword(auth: Auth, userId: string) {
  const accounts = await rows(auth, 'account')
  return accounts.find((row) => row.userId === userId && row.providerId === 'credential')?.password
}

describe('POST /request-password-reset and /forget-password', () => {
  it('is 400 "Reset password isn\'t enabled" without sendResetPassword', async () => {
    const auth = accountAuth({ emailAndPassword: { sendResetPassword: undefined } })
    await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await requestReset(auth, { email: 'ada@example.com' })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'RESET_PASSWORD_DISABLED', message: "Reset password isn't enabled" })
    expect(await rows(auth, 'verification')).toEqual([])
  })

  it('stores a hashed, expiring 24-character token and mails the reset link', async () => {
    const auth = accountAuth()
    const { body: signedUp } = await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await requestReset(auth, { email: 'ADA@example.com', redirectTo: '/reset?step=1' })
    expect(response.status).toBe(200)
    expect(body).toEqual({ status: true, message: MESSAGE })

    const mail = auth.mailbox.last('reset-password')
    expect(mail?.to).toBe('ada@example.com')
    const token = mail?.token ?? ''
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/)
    expect(mail?.url).toBe(`${BASE}/api/auth/reset-password/${token}?callbackURL=${encodeURIComponent('/reset?step=1')}`)

    const [row, ...others] = await rows(auth, 'verification')
    expect(others).toEqual([])
    expect(row?.identifier).toBe(`reset-password:${sha256Base64url(token)}`)
    expect(String(row?.identifier)).not.toContain(token)
    expect(row?.value).toBe(signedUp.user.id)
    expect((row?.expiresAt as Date).getTime() - auth.clock.now().getTime()).toBe(3600 * 1000)
  })

  it('defaults the mailed callbackURL to / and honours resetPasswordTokenExpiresIn', async () => {
    const auth = accountAuth({ emailAndPassword: { resetPasswordTokenExpiresIn: 600 } })
    await signUp(auth, { email: 'ada@example.com' })
    await requestReset(auth, { email: 'ada@example.com' })
    const mail = auth.mailbox.last('reset-password')
    expect(mail?.url).toBe(`${BASE}/api/auth/reset-password/${mail?.token}?callbackURL=%2F`)
    const [row] = await rows(auth, 'verification')
    expect((row?.expiresAt as Date).getTime() - auth.clock.now().getTime()).toBe(600 * 1000)
  })

  it('answers an unknown address exactly like a known one, and stores and mails nothing for it', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const unknown = await requestReset(auth, { email: 'nobody@example.com' })
    expect(await rows(auth, 'verification')).toEqual([])
    expect(auth.mailbox.mails).toEqual([])
    const known = await requestReset(auth, { email: 'ada@example.com' })
    expect(unknown.response.status).toBe(known.response.status)
    expect(await unknown.response.text()).toBe(await known.response.text())
    expect([...unknown.response.headers].sort()).toEqual([...known.response.headers].sort())
  })

  it('/forget-password is the same route', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const known = await requestReset(auth, { email: 'ada@example.com' }, '/api/auth/forget-password')
    const unknown = await requestReset(auth, { email: 'nobody@example.com' }, '/api/auth/forget-password')
    expect(known.body).toEqual({ status: true, message: MESSAGE })
    expect(unknown.body).toEqual({ status: true, message: MESSAGE })
    expect(auth.mailbox.mails.map((mail) => mail.kind)).toEqual(['reset-password'])
    expect(await rows(auth, 'verification')).toHaveLength(1)
  })

  it('a failing mail callback is 500 and leaves no token behind', async () => {
    const auth = accountAuth({
      emailAndPassword: {
        sendResetPassword: () => {
          throw new Error('smtp down')
        },
      },
    })
    await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await requestReset(auth, { email: 'ada@example.com' })
    expect(response.status).toBe(500)
    expect(body).toEqual({ code: 'FAILED_TO_SEND_EMAIL', message: 'Failed to send email' })
    expect(await rows(auth, 'verification')).toEqual([])
  })

  it('rejects an invalid email (400) and an untrusted redirectTo (403)', async () => {
    const auth = accountAuth()
    const invalid = await requestReset(auth, { email: 'nope' })
    expect(invalid.response.status).toBe(400)
    expect(invalid.body).toEqual({ code: 'INVALID_EMAIL', message: 'Invalid email' })
    const untrusted = await requestReset(auth, { email: 'ada@example.com', redirectTo: 'https://evil.test/' })
    expect(untrusted.response.status).toBe(403)
    expect(untrusted.body).toEqual({ code: 'INVALID_REDIRECT_URL', message: 'Invalid redirectURL' })
  })
})

describe('GET /reset-password/:token', () => {
  it('redirects a valid token to the callbackURL with ?token= or &token=, without consuming it', async () => {
    const auth = accountAuth()
    const { token } = await mailedToken(auth, '/reset')
    const followed = await auth.handler(new Request(auth.mailbox.last('reset-password')?.url ?? ''))
    expect(followed.status).toBe(302)
    expect(followed.headers.get('location')).toBe(`/reset?token=${token}`)
    const withQuery = await auth.handler(request(`/api/auth/reset-password/${token}?callbackURL=${encodeURIComponent('/reset?a=1')}`))
    expect(withQuery.headers.get('location')).toBe(`/reset?a=1&token=${token}`)
    expect(await rows(auth, 'verification')).toHaveLength(1)
  })

  it('an unknown, expired or foreign token redirects with error=INVALID_TOKEN', async () => {
    const auth = accountAuth()
    const { token, body } = await mailedToken(auth)
    const remove = await createVerificationToken(await auth.$context, 'delete-account', body.user.id, 3600)
    const location = async (candidate: string) =>
      (await auth.handler(request(`/api/auth/reset-password/${candidate}?callbackURL=%2Freset`))).headers.get('location')
    expect(await location('unknownTokenUnknownToken')).toBe('/reset?error=INVALID_TOKEN')
    expect(await location(remove.token)).toBe('/reset?error=INVALID_TOKEN')
    auth.clock.advance(3600 * 1000 + 1)
    expect(await location(token)).toBe('/reset?error=INVALID_TOKEN')
  })

  it('needs a callbackURL (400) and refuses an untrusted one (403)', async () => {
    const auth = accountAuth()
    const { token } = await mailedToken(auth)
    const missing = await auth.handler(request(`/api/auth/reset-password/${token}`))
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({ code: 'CALLBACK_URL_REQUIRED', message: 'callbackURL is required' })
    const untrusted = await auth.handler(request(`/api/auth/reset-password/${token}?callbackURL=https%3A%2F%2Fevil.test%2F`))
    expect(untrusted.status).toBe(403)
    expect(await untrusted.json()).toEqual({ code: 'INVALID_CALLBACK_URL', message: 'Invalid callbackURL' })
  })
})

describe('POST /reset-password', () => {
  it('sets the new scrypt hash, consumes the token, and the new password signs in', async () => {
    const auth = accountAuth()
    const { token, body: signedUp } = await mailedToken(auth)
    const before = await credentialPassword(auth, signedUp.user.id)
    const { response, body } = await reset(auth, { newPassword: NEW_PASSWORD, token })
    expect(response.status).toBe(200)
    expect(body).toEqual({ status: true })
    const after = await credentialPassword(auth, signedUp.user.id)
    expect(after).not.toBe(before)
    expect(String(after)).toMatch(/^scrypt\$16384\$16\$1\$[\w-]+\$[\w-]+$/)
    expect(await rows(auth, 'verification')).toEqual([])
    expect((await signIn(auth, { email: 'ada@example.com', password: NEW_PASSWORD })).response.status).toBe(200)
    expect((await signIn(auth, { email: 'ada@example.com', password: PASSWORD })).response.status).toBe(401)
  })

  it('accepts the token in the query', async () => {
    const auth = accountAuth()
    const { token } = await mailedToken(auth)
    const { response } = await reset(auth, { newPassword: NEW_PASSWORD }, `?token=${token}`)
    expect(response.status).toBe(200)
    expect(await rows(auth, 'verification')).toEqual([])
  })

  it('a token works once', async () => {
    const auth = accountAuth()
    const { token } = await mailedToken(auth)
    expect((await reset(auth, { newPassword: NEW_PASSWORD, token })).response.status).toBe(200)
    const again = await reset(auth, { newPassword: 'yet another passphrase', token })
    expect(again.response.status).toBe(400)
    expect(again.body).toEqual({ code: 'INVALID_TOKEN', message: 'invalid token' })
    expect((await signIn(auth, { email: 'ada@example.com', password: NEW_PASSWORD })).response.status).toBe(200)
  })

  it('two concurrent resets with one token: exactly one succeeds', async () => {
    const auth = accountAuth()
    const { token, body: signedUp } = await mailedToken(auth)
    const results = await Promise.all([
      reset(auth, { newPassword: 'first new passphrase', token }),
      reset(auth, { newPassword: 'second new passphrase', token }),
    ])
    expect(results.map((result) => result.response.status).sort()).toEqual([200, 400])
    const loser = results.find((result) => result.response.status === 400)
    expect(loser?.body).toEqual({ code: 'INVALID_TOKEN', message: 'invalid token' })
    const winner = results.findIndex((result) => result.response.status === 200)
    const password = winner === 0 ? 'first new passphrase' : 'second new passphrase'
    expect((await signIn(auth, { email: 'ada@example.com', password })).response.status).toBe(200)
    expect(await rows(auth, 'account')).toHaveLength(1)
    expect(await credentialPassword(auth, signedUp.user.id)).toBeTruthy()
  })

  it('invalidates the user\'s other outstanding reset links, not other users\'', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    await signUp(auth, { email: 'bob@example.com' })
    await requestReset(auth, { email: 'ada@example.com' })
    const older = auth.mailbox.last('reset-password')?.token ?? ''
    await requestReset(auth, { email: 'ada@example.com' })
    const newer = auth.mailbox.last('reset-password')?.token ?? ''
    await requestReset(auth, { email: 'bob@example.com' })
    const bobs = auth.mailbox.last('reset-password')?.token ?? ''
    expect((await reset(auth, { newPassword: NEW_PASSWORD, token: newer })).response.status).toBe(200)
    expect((await reset(auth, { newPassword: 'another passphrase', token: older })).response.status).toBe(400)
    expect(await rows(auth, 'verification')).toHaveLength(1)
    expect((await reset(auth, { newPassword: 'bobs passphrase', token: bobs })).response.status).toBe(200)
  })

  it('checks the length first and keeps the token usable after a refused password', async () => {
    const auth = accountAuth()
    const { token } = await mailedToken(auth)
    const short = await reset(auth, { newPassword: 'short', token })
    expect(short.response.status).toBe(400)
    expect(short.body).toEqual({ code: 'PASSWORD_TOO_SHORT', message: 'Password too short', minLength: 8 })
    const long = await reset(auth, { newPassword: 'x'.repeat(129), token })
    expect(long.response.status).toBe(400)
    expect(long.body).toEqual({ code: 'PASSWORD_TOO_LONG', message: 'Password too long', maxLength: 128 })
    expect(await rows(auth, 'verification')).toHaveLength(1)
    expect((await reset(auth, { newPassword: NEW_PASSWORD, token })).response.status).toBe(200)
  })

  it('a missing, unknown or expired token is 400 "invalid token" and changes nothing', async () => {
    const auth = accountAuth()
    const { token, body: signedUp } = await mailedToken(auth)
    const before = await credentialPassword(auth, signedUp.user.id)
    for (const json of [{ newPassword: NEW_PASSWORD }, { newPassword: NEW_PASSWORD, token: 'unknownTokenUnknownToken' }]) {
      const { response, body } = await reset(auth, json)
      expect(response.status).toBe(400)
      expect(body).toEqual({ code: 'INVALID_TOKEN', message: 'invalid token' })
    }
    auth.clock.advance(3600 * 1000)
    expect((await reset(auth, { newPassword: NEW_PASSWORD, token })).response.status).toBe(400)
    expect(await credentialPassword(auth, signedUp.user.id)).toBe(before)
  })

  it('creates a credential account for a user who has none', async () => {
    const auth = accountAuth()
    const { token, body: signedUp } = await mailedToken(auth)
    await (await auth.$context).adapter.deleteMany({ model: 'account', where: { field: 'userId', value: signedUp.user.id } })
    expect((await reset(auth, { newPassword: NEW_PASSWORD, token })).response.status).toBe(200)
    const accounts = await rows(auth, 'account')
    expect(accounts).toEqual([
      expect.objectContaining({ providerId: 'credential', accountId: signedUp.user.id, userId: signedUp.user.id }),
    ])
    expect(String(accounts[0]?.password)).toMatch(/^scrypt\$/)
    expect((await signIn(auth, { email: 'ada@example.com', password: NEW_PASSWORD })).response.status).toBe(200)
  })

  it('ends every session of the user by default; revokeSessionsOnPasswordReset: false keeps those of a verified user', async () => {
    for (const revoke of [undefined, true, false]) {
      const auth = accountAuth({ emailAndPassword: { revokeSessionsOnPasswordReset: revoke } })
      const { token, cookie, body: ada } = await mailedToken(auth)
      // A verified address: the reset is not the first proof of the mailbox (see account-takeover.test.ts).
      await (await auth.$context).adapter.update({ model: 'user', where: { field: 'id', value: ada.user.id }, update: { emailVerified: true } })
      const bob = await signUp(auth, { email: 'bob@example.com' })
      expect((await reset(auth, { newPassword: NEW_PASSWORD, token })).response.status).toBe(200)
      const sessions = await rows(auth, 'session')
      expect(sessions.filter((row) => row.userId === bob.body.user.id)).toHaveLength(1)
      const kept = revoke === false
      expect(sessions).toHaveLength(kept ? 2 : 1)
      const session = await (await auth.handler(authed('/api/auth/get-session', cookie))).json()
      expect(session === null).toBe(!kept)
    }
  })

  it('calls onPasswordReset with the user, after the commit; its failure is logged, not reported', async () => {
    const onPasswordReset = vi.fn()
    const auth = accountAuth({ emailAndPassword: { onPasswordReset } })
    const { token, body: signedUp } = await mailedToken(auth)
    await reset(auth, { newPassword: NEW_PASSWORD, token })
    expect(onPasswordReset).toHaveBeenCalledTimes(1)
    expect(onPasswordReset.mock.calls[0]?.[0]).toEqual({ user: expect.objectContaining({ id: signedUp.user.id }) })

    const logs = captureLogs()
    const failing = accountAuth({
      logger: logs.logger,
      emailAndPassword: {
        onPasswordReset: () => {
          throw new Error('hook down')
        },
      },
    })
    const second = await mailedToken(failing)
    expect((await reset(failing, { newPassword: NEW_PASSWORD, token: second.token })).response.status).toBe(200)
    expect(logs.lines.some((line) => line.includes('onPasswordReset callback failed'))).toBe(true)
  })

  describe('purpose binding', () => {
    it('refuses a delete-account token and a verify-email JWT, leaving them untouched', async () => {
      const auth = accountAuth()
      const { body: signedUp } = await signUp(auth, { email: 'ada@example.com' })
      const context = await auth.$context
      const remove = await createVerificationToken(context, 'delete-account', signedUp.user.id, 3600)
      const jwt = await signEmailToken(context, { email: 'ada@example.com' }, 3600)
      for (const token of [remove.token, jwt]) {
        const { response, body } = await reset(auth, { newPassword: NEW_PASSWORD, token })
        expect(response.status).toBe(400)
        expect(body.code).toBe('INVALID_TOKEN')
      }
      expect(await rows(auth, 'verification')).toHaveLength(1)
      expect((await signIn(auth, { email: 'ada@example.com' })).response.status).toBe(200)
    })

    it('a reset token deletes nobody at /delete-user/callback and stays usable for its own flow', async () => {
      const auth = accountAuth({ user: { deleteUser: { enabled: true } } })
      const { token } = await mailedToken(auth)
      const response = await auth.handler(request(`/api/auth/delete-user/callback?token=${token}`))
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(await rows(auth, 'user')).toHaveLength(1)
      expect((await reset(auth, { newPassword: NEW_PASSWORD, token })).response.status).toBe(200)
    })
  })

  it('logs neither tokens nor passwords', async () => {
    const logs = captureLogs()
    const auth = accountAuth({ logger: logs.logger })
    const { token } = await mailedToken(auth)
    await reset(auth, { newPassword: 'short', token })
    await reset(auth, { newPassword: NEW_PASSWORD, token })
    await reset(auth, { newPassword: NEW_PASSWORD, token })
    await requestReset(auth, { email: 'nobody@example.com' })
    const failing = accountAuth({
      logger: logs.logger,
      emailAndPassword: {
        sendResetPassword: ({ token: sent }) => {
          throw new Error(`refused ${sent}`)
        },
      },
    })
    await signUp(failing, { email: 'ada@example.com' })
    await requestReset(failing, { email: 'ada@example.com' })
    expect(logs.lines.length).toBeGreaterThan(0)
    expect(logs.leaked(token, NEW_PASSWORD, PASSWORD, 'refused')).toEqual([])
  })
})
