/**
 * API keys end to end through `auth.handler` (docs/api-key.md): making one
 * (shown once, stored as a hash), using it from a script as its user, the
 * specific refusals, what a key may never do, who may manage whose keys, and
 * what ends a key.
 */
import { sha256Base64url } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { captureLogs } from '../../core/test/capture-logs.js'
import { authed, browserAnswer, PASSWORD } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import { addMember, asBrowser, asScript, createKey, createOrg, keyAuth, person } from './fixtures.js'

describe('making a key', () => {
  it('answers the key once: 64 letters after the prefix, its hash stored, never answered again', async () => {
    const auth = keyAuth()
    const ada = await person(auth)
    const created = await createKey(auth, ada, { name: 'deploy', prefix: 'gh_' })
    expect(created.key).toMatch(/^gh_[A-Za-z]{64}$/)
    expect(created).toMatchObject({ name: 'deploy', prefix: 'gh_', start: created.key.slice(0, 6), enabled: true, referenceId: ada.id, userId: ada.id })
    expect(JSON.stringify(created)).not.toContain(sha256Base64url(created.key))

    const { db } = await auth.$context
    const row = await db.findOne<{ key: string }>({ model: 'apikey', where: { field: 'id', value: created.id } })
    expect(row?.key).toBe(sha256Base64url(created.key))

    const got = await asBrowser(auth, ada, `/api/auth/api-key/get?id=${created.id}`)
    const listed = await asBrowser(auth, ada, '/api/auth/api-key/list')
    const updated = await asBrowser(auth, ada, '/api/auth/api-key/update', { keyId: created.id, name: 'renamed' })
    for (const answer of [got, listed, updated]) {
      expect(answer.status).toBe(200)
      const text = JSON.stringify(answer.body)
      expect(text).not.toContain(created.key)
      expect(text).not.toContain(sha256Base64url(created.key))
    }
    expect(listed.body).toMatchObject({ total: 1, apiKeys: [{ id: created.id, name: 'deploy' }] })
    expect(updated.body.name).toBe('renamed')
  })

  it('refuses the server-only properties and a userId from a request, and checks names, prefixes and expiries', async () => {
    const auth = keyAuth()
    const ada = await person(auth)
    for (const extra of [{ remaining: 5 }, { rateLimitMax: 1000 }, { rateLimitEnabled: false }, { permissions: { files: ['read'] } }, { refillAmount: 5, refillInterval: 1000 }]) {
      const answer = await asBrowser(auth, ada, '/api/auth/api-key/create', extra)
      expect(answer.status, JSON.stringify(extra)).toBe(400)
      expect(answer.body.code).toBe('SERVER_ONLY_PROPERTY')
    }
    expect((await asBrowser(auth, ada, '/api/auth/api-key/create', { userId: 'someone-else' })).body.code).toBe('UNAUTHORIZED_SESSION')
    expect((await asBrowser(auth, ada, '/api/auth/api-key/create', { name: 'x'.repeat(33) })).body.code).toBe('INVALID_NAME_LENGTH')
    expect((await asBrowser(auth, ada, '/api/auth/api-key/create', { prefix: 'p'.repeat(33) })).body.code).toBe('INVALID_PREFIX_LENGTH')
    expect((await asBrowser(auth, ada, '/api/auth/api-key/create', { prefix: 'no spaces' })).status).toBe(400)
    expect((await asBrowser(auth, ada, '/api/auth/api-key/create', { expiresIn: 3600 })).body.code).toBe('EXPIRES_IN_IS_TOO_SMALL')
    expect((await asBrowser(auth, ada, '/api/auth/api-key/create', { expiresIn: 366 * 86_400 })).body.code).toBe('EXPIRES_IN_IS_TOO_LARGE')
    expect((await asBrowser(auth, ada, '/api/auth/api-key/create', { metadata: { team: 'ops' } })).body.code).toBe('METADATA_DISABLED')
    const { db } = await auth.$context
    expect(await db.count({ model: 'apikey' })).toBe(0)
  })

  it('lets the server set limits and permissions, for a user named by id', async () => {
    const auth = keyAuth()
    const ada = await person(auth)
    const created = await auth.api.createApiKey({ body: { userId: ada.id, remaining: 3, permissions: { files: ['read'] }, rateLimitEnabled: false } })
    expect(created).toMatchObject({ remaining: 3, permissions: { files: ['read'] }, rateLimitEnabled: false, referenceId: ada.id })
  })

  it('refuses a request without a session', async () => {
    const auth = keyAuth()
    const answer = await browserAnswer(await auth.handler(request('/api/auth/api-key/create', { json: { name: 'x' }, headers: { origin: BASE } })))
    expect(answer.status).toBe(401)
  })
})

describe('using a key', () => {
  it("runs a script's request as the key's user, with no cookie, through the handler and auth.api.getSession", async () => {
    const auth = keyAuth()
    const ada = await person(auth)
    const { key, id } = await createKey(auth, ada)
    const session = await asScript(auth, key, '/api/auth/get-session')
    expect(session.status).toBe(200)
    expect(session.body.user.id).toBe(ada.id)
    expect(session.body.session).toMatchObject({ id, userId: ada.id })
    expect(JSON.stringify(session.body)).not.toContain(key)
    expect(session.setCookies).toEqual([])

    const api = await auth.api.getSession({ headers: { 'x-api-key': key } })
    expect(api?.user.email).toBe(ada.email)

    const { db } = await auth.$context
    const row = await db.findOne<{ requestCount: number; lastRequest: Date | null }>({ model: 'apikey', where: { field: 'id', value: id } })
    expect(row?.requestCount).toBe(2)
    expect(row?.lastRequest).toBeInstanceOf(Date)
  })

  it('reads the configured header instead of x-api-key', async () => {
    const auth = keyAuth({ apiKey: { apiKeyHeaders: ['x-service-key'] } })
    const ada = await person(auth)
    const { key } = await createKey(auth, ada)
    expect((await asScript(auth, key, '/api/auth/get-session', { header: 'x-service-key' })).body.user.id).toBe(ada.id)
    expect((await asScript(auth, key, '/api/auth/get-session')).body).toBeNull()
  })

  it('answers the specific refusal: invalid, disabled, expired, used up, rate limited', async () => {
    const auth = keyAuth()
    const ada = await person(auth)
    const invalid = await asScript(auth, 'A'.repeat(64), '/api/auth/get-session')
    expect([invalid.status, invalid.body.code]).toEqual([401, 'INVALID_API_KEY'])

    const disabled = await createKey(auth, ada)
    await asBrowser(auth, ada, '/api/auth/api-key/update', { keyId: disabled.id, enabled: false })
    const off = await asScript(auth, disabled.key, '/api/auth/get-session')
    expect([off.status, off.body.code]).toEqual([401, 'KEY_DISABLED'])

    const expiring = await createKey(auth, ada, { expiresIn: 86_400 })
    auth.clock.advance(86_401_000)
    const expired = await asScript(auth, expiring.key, '/api/auth/get-session')
    expect([expired.status, expired.body.code]).toEqual([401, 'KEY_EXPIRED'])

    const limited = await auth.api.createApiKey({ body: { userId: ada.id, remaining: 1 } })
    expect((await asScript(auth, limited.key, '/api/auth/get-session')).status).toBe(200)
    const used = await asScript(auth, limited.key, '/api/auth/get-session')
    expect([used.status, used.body.code]).toEqual([429, 'USAGE_EXCEEDED'])

    const throttled = await auth.api.createApiKey({ body: { userId: ada.id, rateLimitMax: 2, rateLimitTimeWindow: 60_000 } })
    expect((await asScript(auth, throttled.key, '/api/auth/get-session')).status).toBe(200)
    expect((await asScript(auth, throttled.key, '/api/auth/get-session')).status).toBe(200)
    const response = await auth.handler(request('/api/auth/get-session', { headers: { 'x-api-key': throttled.key } }))
    expect(response.status).toBe(429)
    expect(await response.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' })
    expect(Number(response.headers.get('x-retry-after'))).toBeGreaterThan(0)
    // The window passes: the key works again.
    auth.clock.advance(61_000)
    expect((await asScript(auth, throttled.key, '/api/auth/get-session')).status).toBe(200)
  })

  it('refills remaining uses once the interval has passed', async () => {
    const auth = keyAuth()
    const ada = await person(auth)
    const key = await auth.api.createApiKey({ body: { userId: ada.id, refillAmount: 2, refillInterval: 60_000, rateLimitEnabled: false } })
    expect(key.remaining).toBe(2)
    for (let use = 0; use < 2; use++) expect((await asScript(auth, key.key, '/api/auth/get-session')).status).toBe(200)
    expect((await asScript(auth, key.key, '/api/auth/get-session')).status).toBe(429)
    auth.clock.advance(60_000)
    expect((await asScript(auth, key.key, '/api/auth/get-session')).status).toBe(200)
  })

  it('never falls back to the cookie when the key is refused', async () => {
    const auth = keyAuth()
    const ada = await person(auth)
    const answer = await browserAnswer(await auth.handler(authed('/api/auth/get-session', ada.cookie, { headers: { 'x-api-key': 'B'.repeat(64) } })))
    expect(answer.status).toBe(401)
  })

  it.each([
    ['/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'a different password' }],
    ['/api/auth/change-email', { newEmail: 'new@example.com' }],
    ['/api/auth/revoke-sessions', {}],
    ['/api/auth/api-key/create', { name: 'spawned' }],
    ['/api/auth/api-key/update', { keyId: 'whatever', name: 'x' }],
    ['/api/auth/api-key/delete', { keyId: 'whatever' }],
  ])('never changes credentials: %s answers 403 CREDENTIAL_NOT_ALLOWED', async (path, json) => {
    const auth = keyAuth()
    const ada = await person(auth)
    const { key } = await createKey(auth, ada)
    const answer = await asScript(auth, key, path, { json })
    expect(answer.status).toBe(403)
    expect(answer.body.code).toBe('CREDENTIAL_NOT_ALLOWED')
    const { db } = await auth.$context
    expect(await db.count({ model: 'apikey' })).toBe(1)
  })

  it('never writes the key, or its hash, to the logs: create, use, refusal, revocation', async () => {
    const logs = captureLogs()
    const auth = keyAuth({ logger: logs.logger })
    const ada = await person(auth)
    const { key, id } = await createKey(auth, ada)
    await asScript(auth, key, '/api/auth/get-session')
    await asScript(auth, `${key}x`, '/api/auth/get-session')
    await asScript(auth, key, '/api/auth/change-password', { json: { currentPassword: PASSWORD, newPassword: 'another password' } })
    await auth.api.verifyApiKey({ body: { key } })
    await asBrowser(auth, ada, '/api/auth/api-key/delete', { keyId: id })
    await asScript(auth, key, '/api/auth/get-session')
    expect(logs.lines.length).toBeGreaterThan(0)
    expect(logs.leaked(key, key.slice(8), sha256Base64url(key))).toEqual([])
  })
})

describe('verifyApiKey on the server', () => {
  it('answers valid with the details, checks permissions, and spends one use', async () => {
    const auth = keyAuth()
    const ada = await person(auth)
    const created = await auth.api.createApiKey({ body: { userId: ada.id, permissions: { files: ['read', 'write'] }, remaining: 2 } })
    const ok = await auth.api.verifyApiKey({ body: { key: created.key, permissions: { files: ['read'] } } })
    expect(ok).toMatchObject({ valid: true, error: null, key: { id: created.id, remaining: 1, permissions: { files: ['read', 'write'] } } })
    expect(JSON.stringify(ok)).not.toContain(created.key)
    const lacking = await auth.api.verifyApiKey({ body: { key: created.key, permissions: { users: ['delete'] } } })
    expect(lacking).toEqual({ valid: false, error: { code: 'KEY_NOT_FOUND', message: 'API Key not found' }, key: null })
    // The refusal spent nothing.
    const last = await auth.api.verifyApiKey({ body: { key: created.key } })
    expect(last.valid && last.key.remaining).toBe(0)
    expect(await auth.api.verifyApiKey({ body: { key: created.key } })).toMatchObject({ valid: false, error: { code: 'USAGE_EXCEEDED' } })
    expect(await auth.api.verifyApiKey({ body: { key: 'nope' } })).toMatchObject({ valid: false, error: { code: 'INVALID_API_KEY' } })
  })

  it('is not routed: a request to /api-key/verify is 404', async () => {
    const auth = keyAuth()
    const answer = await browserAnswer(await auth.handler(request('/api/auth/api-key/verify', { json: { key: 'x' } })))
    expect(answer.status).toBe(404)
  })
})

describe('whose keys', () => {
  it("answers 404 for another user's key on get, update and delete, changing nothing", async () => {
    const auth = keyAuth()
    const ada = await person(auth)
    const eve = await person(auth, 'eve')
    const { id, key } = await createKey(auth, ada)
    expect((await asBrowser(auth, eve, `/api/auth/api-key/get?id=${id}`)).body.code).toBe('KEY_NOT_FOUND')
    expect((await asBrowser(auth, eve, '/api/auth/api-key/update', { keyId: id, enabled: false })).body.code).toBe('KEY_NOT_FOUND')
    expect((await asBrowser(auth, eve, '/api/auth/api-key/delete', { keyId: id })).body.code).toBe('KEY_NOT_FOUND')
    expect((await asBrowser(auth, eve, '/api/auth/api-key/list')).body.total).toBe(0)
    expect((await asScript(auth, key, '/api/auth/get-session')).body.user.id).toBe(ada.id)
  })

  it('revoked: the next request carrying the key is refused', async () => {
    const auth = keyAuth()
    const ada = await person(auth)
    const { id, key } = await createKey(auth, ada)
    expect((await asBrowser(auth, ada, '/api/auth/api-key/delete', { keyId: id })).body).toEqual({ success: true })
    expect((await asScript(auth, key, '/api/auth/get-session')).body.code).toBe('INVALID_API_KEY')
  })
})

describe('organization keys', () => {
  async function setup() {
    const auth = keyAuth()
    const owner = await person(auth, 'owner')
    const admin = await person(auth, 'admin')
    const member = await person(auth, 'member')
    const outsider = await person(auth, 'outsider')
    const org = await createOrg(auth, { ...owner, email: owner.email })
    await addMember(auth, org.id, { ...admin, email: admin.email }, 'admin')
    await addMember(auth, org.id, { ...member, email: member.email }, 'member')
    return { auth, owner, admin, member, outsider, org }
  }

  it('are made, listed and revoked by owners and admins; a member gets 403, an outsider 403 on create and 404 on a key', async () => {
    const { auth, owner, admin, member, outsider, org } = await setup()
    const made = await createKey(auth, admin, { organizationId: org.id })
    expect(made).toMatchObject({ referenceId: org.id, referenceType: 'organization' })
    expect(made.userId).toBeUndefined()
    expect((await asBrowser(auth, owner, `/api/auth/api-key/list?organizationId=${org.id}`)).body.total).toBe(1)
    // The owner's own list holds their personal keys only.
    expect((await asBrowser(auth, owner, '/api/auth/api-key/list')).body.total).toBe(0)

    const byMember = await asBrowser(auth, member, '/api/auth/api-key/create', { organizationId: org.id })
    expect([byMember.status, byMember.body.code]).toEqual([403, 'INSUFFICIENT_API_KEY_PERMISSIONS'])
    const byOutsider = await asBrowser(auth, outsider, '/api/auth/api-key/create', { organizationId: org.id })
    expect([byOutsider.status, byOutsider.body.code]).toEqual([403, 'USER_NOT_MEMBER_OF_ORGANIZATION'])
    expect((await asBrowser(auth, outsider, `/api/auth/api-key/get?id=${made.id}`)).body.code).toBe('KEY_NOT_FOUND')
    expect((await asBrowser(auth, member, '/api/auth/api-key/delete', { keyId: made.id })).status).toBe(403)
    expect((await asBrowser(auth, owner, '/api/auth/api-key/delete', { keyId: made.id })).body).toEqual({ success: true })
  })

  it("never exceed their creator's permissions in the organization", async () => {
    const { auth, admin, org } = await setup()
    // An admin may not delete the organization: a key that could is refused.
    await expect(
      auth.api.createApiKey({ body: { userId: admin.id, organizationId: org.id, permissions: { organization: ['delete'] } } }),
    ).rejects.toMatchObject({ code: 'PERMISSIONS_EXCEED_CREATOR' })
    const within = await auth.api.createApiKey({ body: { userId: admin.id, organizationId: org.id, permissions: { member: ['create'] } } })
    expect(within.permissions).toEqual({ member: ['create'] })
    await expect(
      auth.api.updateApiKey({ body: { userId: admin.id, keyId: within.id, permissions: { organization: ['update', 'delete'] } } }),
    ).rejects.toMatchObject({ code: 'PERMISSIONS_EXCEED_CREATOR' })
  })

  it('make no session (no person behind them) but verify on the server, and end with the organization', async () => {
    const { auth, owner, org } = await setup()
    const made = await createKey(auth, owner, { organizationId: org.id })
    const session = await asScript(auth, made.key, '/api/auth/get-session')
    expect([session.status, session.body.code]).toEqual([401, 'INVALID_REFERENCE_ID_FROM_API_KEY'])
    expect(await auth.api.verifyApiKey({ body: { key: made.key } })).toMatchObject({ valid: true, key: { referenceId: org.id } })

    const deleted = await asBrowser(auth, owner, '/api/auth/organization/delete', { organizationId: org.id })
    expect(deleted.status).toBe(200)
    const { db } = await auth.$context
    expect(await db.count({ model: 'apikey', where: { field: 'referenceId', value: org.id } })).toBe(0)
    expect(await auth.api.verifyApiKey({ body: { key: made.key } })).toMatchObject({ valid: false, error: { code: 'INVALID_API_KEY' } })
  })
})

describe('what ends a key', () => {
  it("a password reset deletes the user's keys (an intruder's key must not outlive the recovery); a password change keeps them", async () => {
    const auth = keyAuth()
    const ada = await person(auth)
    const { key } = await createKey(auth, ada)
    const changed = await asBrowser(auth, ada, '/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'another long password' })
    expect(changed.status).toBe(200)
    expect((await asScript(auth, key, '/api/auth/get-session')).status).toBe(200)

    await browserAnswer(await auth.handler(request('/api/auth/request-password-reset', { json: { email: ada.email, redirectTo: '/reset' }, headers: { origin: BASE } })))
    const mail = auth.mailbox.last('reset-password')
    expect(mail?.to).toBe(ada.email)
    const reset = await browserAnswer(await auth.handler(request('/api/auth/reset-password', { json: { token: mail?.token, newPassword: 'a third long password' }, headers: { origin: BASE } })))
    expect(reset.status).toBe(200)
    expect((await asScript(auth, key, '/api/auth/get-session')).body.code).toBe('INVALID_API_KEY')
  })

  it('deleting the user deletes their keys; expired keys go with auth.api.cleanup()', async () => {
    const auth = keyAuth({ user: { deleteUser: { enabled: true } } })
    const ada = await person(auth)
    const bob = await person(auth, 'bob')
    const adaKey = await createKey(auth, ada)
    const bobKey = await createKey(auth, bob, { expiresIn: 86_400 })
    await createKey(auth, bob)
    const deleted = await asBrowser(auth, ada, '/api/auth/delete-user', { password: PASSWORD })
    expect(deleted.status).toBe(200)
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'apikey', where: { field: 'id', value: adaKey.id } })).toBeNull()
    auth.clock.advance(2 * 86_400_000)
    await auth.api.cleanup()
    expect(await db.findOne({ model: 'apikey', where: { field: 'id', value: bobKey.id } })).toBeNull()
    expect(await db.count({ model: 'apikey' })).toBe(1)
  })
})
