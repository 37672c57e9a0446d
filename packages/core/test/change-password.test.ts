import { describe, expect, it } from 'vitest'
import { AuthError } from '../src/errors/catalogue.js'
import { memoryStorage } from '../src/storage/memory-storage.js'
import { hashSessionToken } from '../src/session/session-store.js'
import { accountAuth, authed, cookieHeader, HUGE_PASSWORD, PASSWORD, recordingHasher, signIn, signUp } from './accounts.js'
import { captureLogs } from './capture-logs.js'
import { BASE, request } from './helpers.js'

type Auth = ReturnType<typeof accountAuth>

const NEW_PASSWORD = 'a brand new passphrase'

async function rows(auth: Auth, model: string) {
  return (await auth.$context).adapter.findMany({ model })
}

async function changePassword(auth: Auth, cookie: string, json: unknown) {
  const response = await auth.handler(authed('/api/auth/change-password', cookie, { method: 'POST', json }))
  return { response, body: await response.clone().json() }
}

async function credentialPassword(auth: Auth) {
  return (await rows(auth, 'account')).find((row) => row.providerId === 'credential')?.password
}

async function sessionOf(auth: Auth, cookie: string) {
  return (await auth.handler(authed('/api/auth/get-session', cookie))).json()
}

async function dropCredentialAccounts(auth: Auth) {
  await (await auth.$context).adapter.deleteMany({ model: 'account', where: { field: 'providerId', value: 'credential' } })
}

async function apiError(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  )
  if (!(error instanceof AuthError)) throw new Error('expected an AuthError')
  return error
}

describe('POST /change-password', () => {
  it('changes the hash, keeps the sessions and answers {token: null, user}', async () => {
    const auth = accountAuth()
    const { cookie, body: signedUp } = await signUp(auth, { email: 'ada@example.com' })
    const other = await signIn(auth, { email: 'ada@example.com' })
    const before = await credentialPassword(auth)
    const { response, body } = await changePassword(auth, cookie, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })
    expect(response.status).toBe(200)
    expect(body.token).toBeNull()
    expect(body.user).toMatchObject({ id: signedUp.user.id, email: 'ada@example.com' })
    expect(body.user).not.toHaveProperty('password')
    expect(response.headers.getSetCookie()).toEqual([])

    const after = await credentialPassword(auth)
    expect(after).not.toBe(before)
    expect(String(after)).toMatch(/^scrypt\$16384\$16\$1\$[\w-]+\$[\w-]+$/)
    expect(await rows(auth, 'session')).toHaveLength(2)
    expect((await sessionOf(auth, other.cookie)).user.id).toBe(signedUp.user.id)
    expect((await signIn(auth, { email: 'ada@example.com', password: NEW_PASSWORD })).response.status).toBe(200)
    expect((await signIn(auth, { email: 'ada@example.com', password: PASSWORD })).response.status).toBe(401)
  })

  it('revokeOtherSessions: every old session goes, the caller gets a fresh one', async () => {
    const storage = memoryStorage()
    const auth = accountAuth({ secondaryStorage: storage })
    const { cookie, body: signedUp } = await signUp(auth, { email: 'ada@example.com' })
    const other = await signIn(auth, { email: 'ada@example.com' })
    await signUp(auth, { email: 'bob@example.com' })

    const { response, body } = await changePassword(auth, cookie, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      revokeOtherSessions: true,
    })
    expect(response.status).toBe(200)
    expect(typeof body.token).toBe('string')
    expect(body.token).not.toBe(signedUp.token)
    expect(response.headers.getSetCookie().some((line) => line.startsWith('gatehouse.session_token='))).toBe(true)

    const adasSessions = (await rows(auth, 'session')).filter((row) => row.userId === signedUp.user.id)
    expect(adasSessions.map((row) => row.token)).toEqual([hashSessionToken(body.token)])
    expect(await rows(auth, 'session')).toHaveLength(2)
    // Gone from secondary storage too, which get-session reads first.
    expect(await storage.get(`session:${hashSessionToken(other.body.token)}`)).toBeNull()
    expect(await sessionOf(auth, other.cookie)).toBeNull()
    expect(await sessionOf(auth, cookie)).toBeNull()
    expect((await sessionOf(auth, cookieHeader(response, cookie))).user.id).toBe(signedUp.user.id)
  })

  it('revokeOtherSessions keeps a browser-session login a browser-session login', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const { cookie } = await signIn(auth, { email: 'ada@example.com', rememberMe: false })
    const { response } = await changePassword(auth, cookie, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      revokeOtherSessions: true,
    })
    const tokenCookie = response.headers.getSetCookie().find((line) => line.startsWith('gatehouse.session_token='))
    expect(tokenCookie).toBeDefined()
    expect(tokenCookie).not.toMatch(/max-age/i)
  })

  it('a wrong current password is 400 "Invalid password" and changes nothing', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const before = await credentialPassword(auth)
    const { response, body } = await changePassword(auth, cookie, {
      currentPassword: 'not my password',
      newPassword: NEW_PASSWORD,
      revokeOtherSessions: true,
    })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'INVALID_PASSWORD', message: 'Invalid password' })
    expect(await credentialPassword(auth)).toBe(before)
    expect(await rows(auth, 'session')).toHaveLength(1)
  })

  it('a current password over maxPasswordLength is 400 "Invalid password" without reaching the hasher', async () => {
    const hasher = recordingHasher()
    const auth = accountAuth({ emailAndPassword: { enabled: true, password: hasher.password } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const before = await credentialPassword(auth)
    hasher.lengths.length = 0
    const { response, body } = await changePassword(auth, cookie, { currentPassword: HUGE_PASSWORD, newPassword: NEW_PASSWORD })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'INVALID_PASSWORD', message: 'Invalid password' })
    expect(hasher.lengths).toEqual([])
    expect(await credentialPassword(auth)).toBe(before)
  })

  it('checks the new password\'s length', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const before = await credentialPassword(auth)
    const short = await changePassword(auth, cookie, { currentPassword: PASSWORD, newPassword: 'short' })
    expect(short.response.status).toBe(400)
    expect(short.body).toEqual({ code: 'PASSWORD_TOO_SHORT', message: 'Password too short', minLength: 8 })
    const long = await changePassword(auth, cookie, { currentPassword: PASSWORD, newPassword: 'x'.repeat(129) })
    expect(long.response.status).toBe(400)
    expect(long.body).toEqual({ code: 'PASSWORD_TOO_LONG', message: 'Password too long', maxLength: 128 })
    expect(await credentialPassword(auth)).toBe(before)
  })

  it('without a credential account: 400 "Credential account not found"', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    await dropCredentialAccounts(auth)
    const { response, body } = await changePassword(auth, cookie, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'CREDENTIAL_ACCOUNT_NOT_FOUND', message: 'Credential account not found' })
    expect(await rows(auth, 'account')).toEqual([])
  })

  it('needs a session (401), read from the store rather than the cookie cache', async () => {
    const auth = accountAuth({ session: { cookieCache: { enabled: true } } })
    const anonymous = await auth.handler(
      request('/api/auth/change-password', {
        json: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
        headers: { origin: BASE },
      }),
    )
    expect(anonymous.status).toBe(401)

    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const before = await credentialPassword(auth)
    await (await auth.$context).adapter.deleteMany({ model: 'session', where: { field: 'userId', operator: 'ne', value: '' } })
    // The cookie cache still vouches for the revoked session; a password change must not trust it.
    const { response } = await changePassword(auth, cookie, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })
    expect(response.status).toBe(401)
    expect(await credentialPassword(auth)).toBe(before)
  })

  it('two concurrent changes with the same current password: one wins, the other is "Invalid password"', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const results = await Promise.all([
      changePassword(auth, cookie, { currentPassword: PASSWORD, newPassword: 'first new passphrase' }),
      changePassword(auth, cookie, { currentPassword: PASSWORD, newPassword: 'second new passphrase' }),
    ])
    expect(results.map((result) => result.response.status).sort()).toEqual([200, 400])
    const winner = results.findIndex((result) => result.response.status === 200)
    const password = winner === 0 ? 'first new passphrase' : 'second new passphrase'
    const loser = winner === 0 ? 'second new passphrase' : 'first new passphrase'
    expect((await signIn(auth, { email: 'ada@example.com', password })).response.status).toBe(200)
    expect((await signIn(auth, { email: 'ada@example.com', password: loser })).response.status).toBe(401)
  })

  it('logs no passwords or session tokens', async () => {
    const logs = captureLogs()
    const auth = accountAuth({ logger: logs.logger })
    const { cookie, body: signedUp } = await signUp(auth, { email: 'ada@example.com' })
    await changePassword(auth, cookie, { currentPassword: 'wrong password!', newPassword: NEW_PASSWORD })
    const { body } = await changePassword(auth, cookie, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      revokeOtherSessions: true,
    })
    expect(logs.leaked(PASSWORD, NEW_PASSWORD, 'wrong password!', signedUp.token, body.token)).toEqual([])
  })
})

describe('POST /set-password (server only)', () => {
  it('is not routed over HTTP', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    await dropCredentialAccounts(auth)
    const response = await auth.handler(authed('/api/auth/set-password', cookie, { method: 'POST', json: { newPassword: NEW_PASSWORD } }))
    expect(response.status).toBe(404)
    expect(await rows(auth, 'account')).toEqual([])
  })

  it('creates a credential account for a user without one', async () => {
    const auth = accountAuth()
    const { cookie, body: signedUp } = await signUp(auth, { email: 'ada@example.com' })
    await dropCredentialAccounts(auth)
    const result = await auth.api.setPassword({ body: { newPassword: NEW_PASSWORD }, headers: { cookie } })
    expect(result).toEqual({ status: true })
    const accounts = await rows(auth, 'account')
    expect(accounts).toEqual([
      expect.objectContaining({ providerId: 'credential', accountId: signedUp.user.id, userId: signedUp.user.id }),
    ])
    expect(String(accounts[0]?.password)).toMatch(/^scrypt\$/)
    expect((await signIn(auth, { email: 'ada@example.com', password: NEW_PASSWORD })).response.status).toBe(200)
  })

  it('fills a credential account that has no password', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { adapter } = await auth.$context
    await adapter.updateMany({ model: 'account', where: { field: 'providerId', value: 'credential' }, update: { password: null } })
    expect(await auth.api.setPassword({ body: { newPassword: NEW_PASSWORD }, headers: { cookie } })).toEqual({ status: true })
    expect(await rows(auth, 'account')).toHaveLength(1)
    expect((await signIn(auth, { email: 'ada@example.com', password: NEW_PASSWORD })).response.status).toBe(200)
  })

  it('a user who has a password gets 400 "user already has a password"', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const before = await credentialPassword(auth)
    const error = await apiError(auth.api.setPassword({ body: { newPassword: NEW_PASSWORD }, headers: { cookie } }))
    expect(error.code).toBe('USER_ALREADY_HAS_A_PASSWORD')
    expect(error.status).toBe(400)
    expect(error.message).toBe('user already has a password')
    expect(await credentialPassword(auth)).toBe(before)
  })

  it('checks the length and needs a session', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    await dropCredentialAccounts(auth)
    const short = await apiError(auth.api.setPassword({ body: { newPassword: 'short' }, headers: { cookie } }))
    expect([short.status, short.message]).toEqual([400, 'Password too short'])
    const long = await apiError(auth.api.setPassword({ body: { newPassword: 'x'.repeat(129) }, headers: { cookie } }))
    expect([long.status, long.message]).toEqual([400, 'Password too long'])
    const anonymous = await apiError(auth.api.setPassword({ body: { newPassword: NEW_PASSWORD } }))
    expect(anonymous.status).toBe(401)
    expect(await rows(auth, 'account')).toEqual([])
  })

  it('two concurrent calls create one credential account', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    await dropCredentialAccounts(auth)
    const results = await Promise.allSettled([
      auth.api.setPassword({ body: { newPassword: 'first new passphrase' }, headers: { cookie } }),
      auth.api.setPassword({ body: { newPassword: 'second new passphrase' }, headers: { cookie } }),
    ])
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(await rows(auth, 'account')).toHaveLength(1)
  })
})
