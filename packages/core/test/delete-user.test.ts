import { describe, expect, it } from 'vitest'
import { hashSessionToken } from '../src/session/session-store.js'
import { memoryStorage } from '../src/storage/memory-storage.js'
import { accountAuth, authed, HUGE_PASSWORD, PASSWORD, recordingHasher, signIn, signUp } from './accounts.js'
import { type Auth, clearsSession, type DeleteMail, deleteAuth, postDelete, rows } from './delete-user-fixtures.js'
import { BASE, request } from './helpers.js'

const DAY = 24 * 60 * 60 * 1000

/** Makes a user whose only account is a social one (no password). */
async function passwordlessUser(auth: Auth, email: string) {
  const { body, cookie } = await signUp(auth, { email })
  const db = (await auth.$context).db
  await db.deleteMany({ model: 'account', where: { field: 'userId', value: body.user.id } })
  await db.create({ model: 'account', data: { providerId: 'github', accountId: 'gh-1', userId: body.user.id } })
  return { id: body.user.id as string, cookie }
}

describe('POST /delete-user: access', () => {
  it('disabled: 404 "Delete user is disabled", nothing deleted', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await postDelete(auth, cookie)
    expect(response.status).toBe(404)
    expect(body).toEqual({ code: 'DELETE_USER_DISABLED', message: 'Delete user is disabled' })
    expect(await rows(auth, 'user')).toHaveLength(1)
  })

  it('needs a session: 401', async () => {
    const auth = deleteAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const response = await auth.handler(request('/api/auth/delete-user', { method: 'POST' }))
    expect(response.status).toBe(401)
    expect(await rows(auth, 'user')).toHaveLength(1)
  })
})

describe('POST /delete-user: directly, with a recent session', () => {
  it('deletes the user, all their sessions and accounts, clears cookies; other users untouched', async () => {
    const auth = deleteAuth()
    const other = await signUp(auth, { email: 'other@example.com' })
    const { cookie, body: ada } = await signUp(auth, { email: 'ada@example.com' })
    const second = await signIn(auth, { email: 'ada@example.com' })
    expect(await rows(auth, 'session')).toHaveLength(3)

    const { response, body } = await postDelete(auth, cookie)
    expect(response.status).toBe(200)
    expect(body).toEqual({ success: true, message: 'User deleted' })
    expect(clearsSession(response)).toBe(true)
    expect((await rows(auth, 'user')).map((user) => user.id)).toEqual([other.body.user.id])
    expect((await rows(auth, 'session')).every((session) => session.userId === other.body.user.id)).toBe(true)
    expect(await rows(auth, 'session')).toHaveLength(1)
    expect((await rows(auth, 'account')).filter((account) => account.userId === ada.user.id)).toEqual([])

    for (const stale of [cookie, second.cookie]) {
      const session = await auth.handler(authed('/api/auth/get-session', stale))
      expect(await session.json()).toBeNull()
    }
    const stillThere = await auth.handler(authed('/api/auth/get-session', other.cookie))
    expect((await stillThere.json()).user.email).toBe('other@example.com')
  })

  it('removes the sessions from secondary storage too', async () => {
    const storage = memoryStorage()
    const auth = deleteAuth({}, { secondaryStorage: storage })
    const first = await signUp(auth, { email: 'ada@example.com' })
    const second = await signIn(auth, { email: 'ada@example.com' })
    const keys = [first.body.token, second.body.token].map((token: string) => `session:${hashSessionToken(token)}`)
    for (const key of keys) expect(await storage.get(key)).not.toBeNull()

    expect((await postDelete(auth, first.cookie)).response.status).toBe(200)
    for (const key of keys) expect(await storage.get(key)).toBeNull()
    // get-session reads secondary storage first: a leftover copy would still sign the user in.
    const session = await auth.handler(authed('/api/auth/get-session', second.cookie))
    expect(await session.json()).toBeNull()
  })

  it('calls beforeDelete and afterDelete with the user; a throwing beforeDelete vetoes', async () => {
    const calls: string[] = []
    const auth = deleteAuth({
      beforeDelete: (user) => {
        calls.push(`before:${user.email}`)
        if (user.email === 'keep@example.com') throw new Error('vetoed')
      },
      afterDelete: (user) => {
        calls.push(`after:${user.email}`)
      },
    })
    const keep = await signUp(auth, { email: 'keep@example.com' })
    const vetoed = await postDelete(auth, keep.cookie)
    expect(vetoed.response.status).toBe(500)
    expect(await rows(auth, 'user')).toHaveLength(1)
    expect(await rows(auth, 'session')).toHaveLength(1)

    const ada = await signUp(auth, { email: 'ada@example.com' })
    expect((await postDelete(auth, ada.cookie)).response.status).toBe(200)
    expect(calls).toEqual(['before:keep@example.com', 'before:ada@example.com', 'after:ada@example.com'])
  })

  it('a failing afterDelete is logged; the deletion stands', async () => {
    const lines: string[] = []
    const auth = deleteAuth(
      {
        afterDelete: () => {
          throw new Error('downstream cleanup failed')
        },
      },
      { logger: { level: 'debug', log: (level, message) => lines.push(`${level} ${message}`) } },
    )
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await postDelete(auth, cookie)
    expect(response.status).toBe(200)
    expect(body.message).toBe('User deleted')
    expect(await rows(auth, 'user')).toHaveLength(0)
    expect(lines).toContain('error deleteUser.afterDelete failed')
  })

  it('also removes the user\'s pending reset-password tokens', async () => {
    const auth = deleteAuth()
    await signUp(auth, { email: 'other@example.com' })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    for (const email of ['ada@example.com', 'other@example.com']) {
      await auth.handler(request('/api/auth/request-password-reset', { json: { email }, headers: { origin: BASE } }))
    }
    expect(await rows(auth, 'verification')).toHaveLength(2)
    expect((await postDelete(auth, cookie)).response.status).toBe(200)
    const left = await rows(auth, 'verification')
    expect(left).toHaveLength(1)
    const otherId = (await rows(auth, 'user'))[0]?.id
    expect(left[0]?.value).toBe(otherId)
  })
})

describe('POST /delete-user: session not recent', () => {
  it('a user with a password is told to provide it; a passwordless user gets "Session expired"', async () => {
    const auth = deleteAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const social = await passwordlessUser(auth, 'sam@example.com')
    // Two days on: the session (7 days) is valid, past the 1-day fresh age. Reading it
    // refreshes its updatedAt; recency is measured from creation, so that does not help.
    auth.clock.advance(2 * DAY)

    const withPassword = await postDelete(auth, cookie)
    expect(withPassword.response.status).toBe(400)
    expect(withPassword.body).toEqual({
      code: 'USER_ALREADY_HAS_PASSWORD',
      message: 'User already has a password. Provide that to delete the account.',
    })
    const withoutPassword = await postDelete(auth, social.cookie)
    expect(withoutPassword.response.status).toBe(400)
    expect(withoutPassword.body).toEqual({
      code: 'SESSION_EXPIRED',
      message: 'Session expired. Re-authenticate to perform this action.',
    })
    expect(await rows(auth, 'user')).toHaveLength(2)

    // A new sign-in makes a recent session, which deletes directly.
    const fresh = await signIn(auth, { email: 'ada@example.com' })
    expect((await postDelete(auth, fresh.cookie)).body).toEqual({ success: true, message: 'User deleted' })
  })

  it('just inside the fresh age still deletes; a fresh age of 0 turns the check off', async () => {
    const auth = deleteAuth({}, { session: { freshAge: 3600 } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    auth.clock.advance(3599 * 1000)
    expect((await postDelete(auth, cookie)).response.status).toBe(200)

    const off = deleteAuth({}, { session: { freshAge: 0 } })
    const social = await passwordlessUser(off, 'sam@example.com')
    off.clock.advance(6 * DAY)
    expect((await postDelete(off, social.cookie)).response.status).toBe(200)
    expect(await rows(off, 'user')).toHaveLength(0)
  })
})

describe('POST /delete-user: with a password', () => {
  it('the right password deletes even when the session is not recent', async () => {
    const auth = deleteAuth({ mail: true })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    auth.clock.advance(2 * DAY)
    const { response, body } = await postDelete(auth, cookie, { password: PASSWORD })
    expect(response.status).toBe(200)
    expect(body).toEqual({ success: true, message: 'User deleted' })
    expect(clearsSession(response)).toBe(true)
    expect(await rows(auth, 'user')).toHaveLength(0)
    expect(await rows(auth, 'account')).toHaveLength(0)
    // The password path deletes at once: no mail, even with mail configured.
    expect(auth.deleteMails).toHaveLength(0)
  })

  it('a wrong password is 400 "Invalid password"; no credential account is "Credential account not found"', async () => {
    const auth = deleteAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const wrong = await postDelete(auth, cookie, { password: 'not the password' })
    expect(wrong.response.status).toBe(400)
    expect(wrong.body).toEqual({ code: 'INVALID_PASSWORD', message: 'Invalid password' })

    const social = await passwordlessUser(auth, 'sam@example.com')
    const missing = await postDelete(auth, social.cookie, { password: PASSWORD })
    expect(missing.response.status).toBe(400)
    expect(missing.body).toEqual({ code: 'CREDENTIAL_ACCOUNT_NOT_FOUND', message: 'Credential account not found' })
    expect(await rows(auth, 'user')).toHaveLength(2)
    expect(await rows(auth, 'session')).toHaveLength(2)
  })

  it('a password over maxPasswordLength is 400 "Invalid password" without reaching the hasher', async () => {
    const hasher = recordingHasher()
    const auth = deleteAuth({}, { emailAndPassword: { enabled: true, password: hasher.password } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    hasher.lengths.length = 0
    const { response, body } = await postDelete(auth, cookie, { password: HUGE_PASSWORD })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'INVALID_PASSWORD', message: 'Invalid password' })
    expect(hasher.lengths).toEqual([])
    expect(await rows(auth, 'user')).toHaveLength(1)
  })
})

describe('POST /delete-user: mailed verification', () => {
  it('stores a hashed 32-character token, mails the callback link, deletes nothing yet', async () => {
    const auth = deleteAuth({ mail: true })
    const { cookie, body: ada } = await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await postDelete(auth, cookie, { callbackURL: '/goodbye' })
    expect(response.status).toBe(200)
    expect(body).toEqual({ success: true, message: 'Verification email sent' })
    expect(await rows(auth, 'user')).toHaveLength(1)
    expect(clearsSession(response)).toBe(false)

    const mail = auth.deleteMails[0] as DeleteMail
    expect(mail.to).toBe('ada@example.com')
    expect(mail.token).toMatch(/^[a-z0-9]{32}$/)
    const url = new URL(mail.url)
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/api/auth/delete-user/callback`)
    expect(url.searchParams.get('token')).toBe(mail.token)
    expect(url.searchParams.get('callbackURL')).toBe('/goodbye')

    const [stored] = await rows(auth, 'verification')
    expect(String(stored?.identifier)).toMatch(/^delete-account-/)
    expect(String(stored?.identifier)).not.toContain(mail.token)
    expect(stored?.value).toBe(ada.user.id)
    const now = auth.clock.now().getTime()
    expect((stored?.expiresAt as Date).getTime()).toBe(now + 86_400_000)
  })

  it('honours deleteTokenExpiresIn and defaults the link\'s callbackURL to "/"', async () => {
    const auth = deleteAuth({ mail: true, deleteTokenExpiresIn: 600 })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    await postDelete(auth, cookie)
    const [stored] = await rows(auth, 'verification')
    expect((stored?.expiresAt as Date).getTime()).toBe(auth.clock.now().getTime() + 600_000)
    expect(new URL(auth.deleteMails[0]?.url ?? '').searchParams.get('callbackURL')).toBe('/')
  })

  it('a failing mail is 500 and leaves no token behind', async () => {
    const auth = deleteAuth({
      sendDeleteAccountVerification: () => {
        throw new Error('smtp down')
      },
    })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { response, body } = await postDelete(auth, cookie)
    expect(response.status).toBe(500)
    expect(body).toEqual({ code: 'FAILED_TO_SEND_EMAIL', message: 'Failed to send email' })
    expect(await rows(auth, 'verification')).toHaveLength(0)
    expect(await rows(auth, 'user')).toHaveLength(1)
  })

  it('the mailed token posted back by its user deletes; by another user it is "invalid token" and survives', async () => {
    const calls: string[] = []
    const auth = deleteAuth({ mail: true, beforeDelete: (user) => void calls.push(user.email) })
    const ada = await signUp(auth, { email: 'ada@example.com' })
    const eve = await signUp(auth, { email: 'eve@example.com' })
    await postDelete(auth, ada.cookie)
    const token = auth.deleteMails[0]?.token
    const pending = await rows(auth, 'verification')
    expect(pending).toHaveLength(1)

    const stolen = await postDelete(auth, eve.cookie, { token })
    expect(stolen.response.status).toBe(400)
    expect(stolen.body).toEqual({ code: 'INVALID_TOKEN', message: 'invalid token' })
    expect(clearsSession(stolen.response)).toBe(false)
    expect(await rows(auth, 'user')).toHaveLength(2)
    expect(await rows(auth, 'session')).toHaveLength(2)
    // Compared before it is consumed: the row is untouched and no deletion began (no beforeDelete).
    expect(await rows(auth, 'verification')).toEqual(pending)
    expect(calls).toEqual([])

    const bogus = await postDelete(auth, ada.cookie, { token: 'x'.repeat(32) })
    expect(bogus.body.code).toBe('INVALID_TOKEN')
    expect(calls).toEqual([])

    const own = await postDelete(auth, ada.cookie, { token })
    expect(own.response.status).toBe(200)
    expect(own.body).toEqual({ success: true, message: 'User deleted' })
    expect((await rows(auth, 'user')).map((user) => user.email)).toEqual(['eve@example.com'])
    expect(await rows(auth, 'verification')).toHaveLength(0)
    expect(calls).toEqual(['ada@example.com'])
  })

  it('with password and token both given, both must hold', async () => {
    const auth = deleteAuth({ mail: true })
    const ada = await signUp(auth, { email: 'ada@example.com' })
    await postDelete(auth, ada.cookie)
    const token = auth.deleteMails[0]?.token
    const wrongToken = await postDelete(auth, ada.cookie, { password: PASSWORD, token: 'y'.repeat(32) })
    expect(wrongToken.body.code).toBe('INVALID_TOKEN')
    const wrongPassword = await postDelete(auth, ada.cookie, { password: 'nope nope nope', token })
    expect(wrongPassword.body.code).toBe('INVALID_PASSWORD')
    expect(await rows(auth, 'verification')).toHaveLength(1)
    expect((await postDelete(auth, ada.cookie, { password: PASSWORD, token })).response.status).toBe(200)
    expect(await rows(auth, 'user')).toHaveLength(0)
  })
})
