import { describe, expect, it } from 'vitest'
import { hashSessionToken } from '../src/session/session-store.js'
import { memoryStorage } from '../src/storage/memory-storage.js'
import { accountAuth, authed, cookieHeader, signIn, signUp } from './accounts.js'
import { request } from './helpers.js'

type Auth = ReturnType<typeof accountAuth>

async function rows(auth: Auth, model: string) {
  return (await auth.$context).adapter.findMany({ model })
}

async function update(auth: Auth, cookie: string, json: unknown) {
  const response = await auth.handler(authed('/api/auth/update-user', cookie, { method: 'POST', json }))
  return { response, body: await response.clone().json() }
}

async function sessionUser(auth: Auth, cookie: string, query = '') {
  const response = await auth.handler(authed(`/api/auth/get-session${query}`, cookie))
  return (await response.json()).user
}

const additionalFields = {
  plan: { type: 'string', required: false },
  age: { type: 'number', required: false },
  role: { type: 'string', required: false, input: false, defaultValue: 'member' },
} as const

describe('POST /update-user', () => {
  it('updates name and image, answers {status: true}, get-session shows the change', async () => {
    const auth = accountAuth()
    const { cookie, body: signedUp } = await signUp(auth, { email: 'ada@example.com', name: 'Ada' })
    const { response, body } = await update(auth, cookie, { name: 'Ada Lovelace', image: 'https://img.test/ada.png' })
    expect(response.status).toBe(200)
    expect(body).toEqual({ status: true })
    const [user] = await rows(auth, 'user')
    expect(user).toMatchObject({ id: signedUp.user.id, name: 'Ada Lovelace', image: 'https://img.test/ada.png' })
    expect((await sessionUser(auth, cookie)).name).toBe('Ada Lovelace')

    const cleared = await update(auth, cookie, { image: null })
    expect(cleared.response.status).toBe(200)
    expect((await rows(auth, 'user'))[0]?.image).toBeNull()
  })

  it('re-issues the cookie cache so get-session shows the new data at once', async () => {
    const auth = accountAuth({ session: { cookieCache: { enabled: true } } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com', name: 'Ada' })
    expect(cookie).toContain('session_data=')
    const { response } = await update(auth, cookie, { name: 'Countess' })
    expect(response.headers.getSetCookie().some((line) => line.startsWith('gatehouse.session_data='))).toBe(true)
    // The old cache cookie still says "Ada" (the cache is really what get-session reads) ...
    expect((await sessionUser(auth, cookie)).name).toBe('Ada')
    // ... and the re-issued one carries the change.
    expect((await sessionUser(auth, cookieHeader(response, cookie))).name).toBe('Countess')
  })

  it('rewrites the copies of every session of the user in secondary storage', async () => {
    const storage = memoryStorage()
    const auth = accountAuth({ secondaryStorage: storage })
    const first = await signUp(auth, { email: 'ada@example.com', name: 'Ada' })
    const other = await signIn(auth, { email: 'ada@example.com' })
    const otherCookie = other.cookie
    const otherToken = other.body.token as string
    expect((await update(auth, first.cookie, { name: 'Countess' })).response.status).toBe(200)

    const stored = JSON.parse((await storage.get(`session:${hashSessionToken(otherToken)}`)) ?? 'null')
    expect(stored.user.name).toBe('Countess')
    // get-session reads secondary storage before the database: a stale copy would show here.
    expect((await sessionUser(auth, otherCookie)).name).toBe('Countess')
  })

  it('an email field is 400 "Email can not be updated" and changes nothing', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com', name: 'Ada' })
    const { response, body } = await update(auth, cookie, { name: 'Eve', email: 'eve@example.com' })
    expect(response.status).toBe(400)
    expect(body).toEqual({ code: 'EMAIL_CAN_NOT_BE_UPDATED', message: 'Email can not be updated' })
    expect((await rows(auth, 'user'))[0]).toMatchObject({ name: 'Ada', email: 'ada@example.com' })
  })

  it('filters extra fields: configured ones are written, input:false and unknown ones ignored', async () => {
    const auth = accountAuth({ user: { additionalFields } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { response } = await update(auth, cookie, { plan: 'pro', age: 36, role: 'admin', favourite: 'x', emailVerified: true, id: 'forged' })
    expect(response.status).toBe(200)
    const [user] = await rows(auth, 'user')
    expect(user).toMatchObject({ plan: 'pro', age: 36, role: 'member', emailVerified: false })
    expect(user).not.toHaveProperty('favourite')
    expect(user?.id).not.toBe('forged')
  })

  it('a field of the wrong type is 400 and changes nothing', async () => {
    const auth = accountAuth({ user: { additionalFields } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com', name: 'Ada' })
    const wrongExtra = await update(auth, cookie, { name: 'Eve', age: 'old' })
    expect(wrongExtra.response.status).toBe(400)
    expect(wrongExtra.body.code).toBe('VALIDATION_ERROR')
    expect(wrongExtra.body.message).toBe('body.age: expected number')
    const wrongName = await update(auth, cookie, { name: 42 })
    expect(wrongName.response.status).toBe(400)
    expect(wrongName.body.code).toBe('VALIDATION_ERROR')
    expect((await rows(auth, 'user'))[0]).toMatchObject({ name: 'Ada', age: null })
  })

  it('nothing to update is 400 "No fields to update"', async () => {
    const auth = accountAuth({ user: { additionalFields } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    for (const json of [{}, { emailVerified: true, role: 'admin', unknown: 1 }]) {
      const { response, body } = await update(auth, cookie, json)
      expect(response.status).toBe(400)
      expect(body).toEqual({ code: 'NO_FIELDS_TO_UPDATE', message: 'No fields to update' })
    }
    expect((await rows(auth, 'user'))[0]).toMatchObject({ emailVerified: false, role: 'member' })
  })

  it('caps name (256), image (2048) and string additional fields (1024 by default): 400 naming the field, nothing changed', async () => {
    const auth = accountAuth({ user: { additionalFields } })
    const { cookie } = await signUp(auth, { email: 'ada@example.com', name: 'Ada' })
    for (const [json, message] of [
      [{ name: 'n'.repeat(257) }, 'body.name: Too big: expected string to have <=256 characters'],
      [{ image: 'i'.repeat(2049) }, 'body.image: Too big: expected string to have <=2048 characters'],
      [{ name: 'Eve', plan: 'p'.repeat(1025) }, 'body.plan: Too big: expected string to have <=1024 characters'],
    ] as const) {
      const { response, body } = await update(auth, cookie, json)
      expect(response.status).toBe(400)
      expect(body).toMatchObject({ code: 'VALIDATION_ERROR', message })
    }
    expect((await rows(auth, 'user'))[0]).toMatchObject({ name: 'Ada', image: null, plan: null })
    expect((await update(auth, cookie, { name: 'n'.repeat(256), plan: 'p'.repeat(1024) })).response.status).toBe(200)
  })

  it('reads the session from the store: a session revoked elsewhere is 401 while its cache cookie is still valid', async () => {
    const auth = accountAuth({ session: { cookieCache: { enabled: true } } })
    const first = await signUp(auth, { email: 'ada@example.com', name: 'Ada' })
    const second = await signIn(auth, { email: 'ada@example.com' })
    expect((await auth.handler(authed('/api/auth/revoke-sessions', second.cookie, { method: 'POST' }))).status).toBe(200)
    // The cache cookie still vouches for the revoked session ...
    expect((await sessionUser(auth, first.cookie)).name).toBe('Ada')
    // ... but it cannot rewrite the profile.
    const { response } = await update(auth, first.cookie, { name: 'Mallory' })
    expect(response.status).toBe(401)
    expect((await rows(auth, 'user'))[0]?.name).toBe('Ada')
  })

  it('without a session: 401', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com', name: 'Ada' })
    const response = await auth.handler(request('/api/auth/update-user', { json: { name: 'Eve' } }))
    expect(response.status).toBe(401)
    expect((await rows(auth, 'user'))[0]?.name).toBe('Ada')
  })
})
