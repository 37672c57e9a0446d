/**
 * A revoked session stays revoked with secondary storage
 * (docs/sessions.md#revocation-and-racing-reads). Each race is injected at
 * the exact point where it hurts, by a memory storage that runs a request
 * from inside its own delete or set: a get-session that misses the store
 * while the revoking transaction is still open, and a refresh whose copy is
 * written just after a revocation. Then the store is made unreachable:
 * revoking answers 503 and changes nothing, so another process (a second
 * auth on the same database and store) never accepts a session that a
 * revocation reported as gone.
 */
import { describe, expect, it } from 'vitest'
import type { AdapterFactory } from '../src/db/adapter.js'
import { memoryAdapter } from '../src/db/memory/index.js'
import { hashSessionToken } from '../src/session/session-store.js'
import { StorageUnavailableError } from '../src/storage/errors.js'
import { memoryStorage } from '../src/storage/memory-storage.js'
import type { SecondaryStorage } from '../src/storage/types.js'
import { accountAuth, authed, browserAnswer, signIn, signUp } from './accounts.js'
import { BASE, request } from './helpers.js'

type Auth = ReturnType<typeof accountAuth>
type Hook = () => Promise<void>

const DAY = 24 * 60 * 60 * 1000
const NEW_PASSWORD = 'a brand new passphrase'

/**
 * A memory storage that runs `hook` once, inside the next delete of `key`
 * (after the entry is gone) or the next set of `key` (before it is written),
 * and that can be switched off like an unreachable Redis.
 */
function racingStorage() {
  const inner = memoryStorage()
  const hooks: { delete: Map<string, Hook>; set: Map<string, Hook> } = { delete: new Map(), set: new Map() }
  let down: 'all' | 'after-first-delete' | false = false
  let deletes = 0
  const take = (kind: 'delete' | 'set', key: string) => {
    const hook = hooks[kind].get(key)
    hooks[kind].delete(key)
    return hook
  }
  const unavailable = () => new StorageUnavailableError('Redis is unavailable (connection end)')
  const storage: SecondaryStorage = {
    async get(key) {
      if (down === 'all') throw unavailable()
      return inner.get(key)
    },
    async set(key, value, ttl) {
      if (down === 'all') throw unavailable()
      await take('set', key)?.()
      await inner.set(key, value, ttl)
    },
    async delete(key) {
      deletes += 1
      if (down === 'all' || (down === 'after-first-delete' && deletes > 1)) throw unavailable()
      await inner.delete(key)
      await take('delete', key)?.()
    },
  }
  return {
    storage,
    inner,
    onDelete: (key: string, hook: Hook) => void hooks.delete.set(key, hook),
    onSet: (key: string, hook: Hook) => void hooks.set.set(key, hook),
    setDown(mode: typeof down) {
      down = mode
      deletes = 0
    },
  }
}

/** One database for several auths, as processes sharing a database server. */
function sharedDatabase(): AdapterFactory {
  const factory = memoryAdapter()
  let adapter: ReturnType<AdapterFactory> | undefined
  return (options) => (adapter ??= factory(options))
}

const keyOf = (token: string) => `session:${hashSessionToken(token)}`

async function getSession(auth: Auth, cookie: string) {
  return browserAnswer(await auth.handler(authed('/api/auth/get-session?disableCookieCache=true', cookie)), cookie)
}

async function post(auth: Auth, path: string, cookie: string, json: unknown = {}) {
  return browserAnswer(await auth.handler(authed(`/api/auth/${path}`, cookie, { json })), cookie)
}

async function sessionRows(auth: Auth) {
  return (await auth.$context).adapter.findMany({ model: 'session' })
}

describe('a read racing the revoking transaction cannot put the session back', () => {
  it('reset-password: a get-session that misses the store while the reset is uncommitted', async () => {
    const race = racingStorage()
    const auth = accountAuth({ secondaryStorage: race.storage, emailAndPassword: { revokeSessionsOnPasswordReset: true } })
    const stolen = await signUp(auth, { email: 'ada@example.com' })
    await auth.handler(request('/api/auth/request-password-reset', { json: { email: 'ada@example.com' }, headers: { origin: BASE } }))
    const token = auth.mailbox.last('reset-password')?.token ?? ''

    let during: Awaited<ReturnType<typeof getSession>> | undefined
    race.onDelete(keyOf(stolen.body.token), async () => {
      // The thief polls between the storage delete and the commit: the row is still there to read.
      during = await getSession(auth, stolen.cookie)
    })
    const reset = await auth.handler(request('/api/auth/reset-password', { json: { newPassword: NEW_PASSWORD, token }, headers: { origin: BASE } }))
    expect(reset.status).toBe(200)
    expect(during?.body?.user.email).toBe('ada@example.com')

    expect(await sessionRows(auth)).toEqual([])
    expect(await race.inner.get(keyOf(stolen.body.token))).toBeNull()
    expect((await getSession(auth, stolen.cookie)).body).toBeNull()
    expect((await auth.handler(authed('/api/auth/list-sessions', stolen.cookie))).status).toBe(401)
  })

  it('change-password with revokeOtherSessions: the same race, and the caller keeps only the new session', async () => {
    const race = racingStorage()
    const auth = accountAuth({ secondaryStorage: race.storage })
    const stolen = await signUp(auth, { email: 'ada@example.com' })
    const own = await signIn(auth, { email: 'ada@example.com' })

    let during: Awaited<ReturnType<typeof getSession>> | undefined
    race.onDelete(keyOf(stolen.body.token), async () => {
      during = await getSession(auth, stolen.cookie)
    })
    const changed = await post(auth, 'change-password', own.cookie, { currentPassword: 'correct horse battery', newPassword: NEW_PASSWORD, revokeOtherSessions: true })
    expect(changed.status).toBe(200)
    expect(during?.body?.user.email).toBe('ada@example.com')

    expect(await race.inner.get(keyOf(stolen.body.token))).toBeNull()
    expect((await getSession(auth, stolen.cookie)).body).toBeNull()
    expect((await getSession(auth, changed.cookie)).body?.user.email).toBe('ada@example.com')
    expect(await sessionRows(auth)).toHaveLength(1)
  })
})

describe('a copy written just after a revocation is taken back', () => {
  it('sign-out while a refresh of the same session is between its update and its write', async () => {
    const race = racingStorage()
    const auth = accountAuth({ secondaryStorage: race.storage })
    const session = await signUp(auth, { email: 'ada@example.com' })
    auth.clock.advance(DAY + 1000)

    let signedOut: Awaited<ReturnType<typeof post>> | undefined
    race.onSet(keyOf(session.body.token), async () => {
      signedOut = await post(auth, 'sign-out', session.cookie)
    })
    const refreshing = await getSession(auth, session.cookie)
    expect(signedOut?.status).toBe(200)
    expect(signedOut?.cookie).toBe('')
    // The refresh finds its session gone once its copy is written: 401, cookies cleared.
    expect(refreshing.status).toBe(401)
    expect(refreshing.cookie).toBe('')

    expect(await race.inner.get(keyOf(session.body.token))).toBeNull()
    expect((await getSession(auth, session.cookie)).body).toBeNull()
  })

  it('revoke-session (from another device) while a refresh of the revoked session writes its copy', async () => {
    const race = racingStorage()
    const auth = accountAuth({ secondaryStorage: race.storage })
    const stolen = await signUp(auth, { email: 'ada@example.com' })
    auth.clock.advance(DAY + 1000)
    const own = await signIn(auth, { email: 'ada@example.com' })

    let revoked: Awaited<ReturnType<typeof post>> | undefined
    race.onSet(keyOf(stolen.body.token), async () => {
      revoked = await post(auth, 'revoke-session', own.cookie, { token: hashSessionToken(stolen.body.token) })
    })
    expect((await getSession(auth, stolen.cookie)).status).toBe(401)
    expect(revoked?.body).toEqual({ status: true })

    expect(await race.inner.get(keyOf(stolen.body.token))).toBeNull()
    expect((await getSession(auth, stolen.cookie)).body).toBeNull()
    expect((await getSession(auth, own.cookie)).body?.user.email).toBe('ada@example.com')
  })

  it('revoke-sessions while a get-session that missed the store writes its copy', async () => {
    const race = racingStorage()
    const auth = accountAuth({ secondaryStorage: race.storage })
    const stolen = await signUp(auth, { email: 'ada@example.com' })
    const own = await signIn(auth, { email: 'ada@example.com' })
    // Evicted (or Redis restarted): the thief's next read misses and mirrors the row again.
    await race.inner.delete(keyOf(stolen.body.token))

    let revoked: Awaited<ReturnType<typeof post>> | undefined
    race.onSet(keyOf(stolen.body.token), async () => {
      revoked = await post(auth, 'revoke-sessions', own.cookie)
    })
    expect((await getSession(auth, stolen.cookie)).body).toBeNull()
    expect(revoked?.body).toEqual({ status: true })
    expect(await race.inner.get(keyOf(stolen.body.token))).toBeNull()
    expect((await getSession(auth, stolen.cookie)).body).toBeNull()
  })

  it('update-user rewriting the copies of a session revoked meanwhile', async () => {
    const race = racingStorage()
    const auth = accountAuth({ secondaryStorage: race.storage })
    const stolen = await signUp(auth, { email: 'ada@example.com' })
    const own = await signIn(auth, { email: 'ada@example.com' })

    let revoked: Awaited<ReturnType<typeof post>> | undefined
    race.onSet(keyOf(stolen.body.token), async () => {
      revoked = await post(auth, 'revoke-session', own.cookie, { token: hashSessionToken(stolen.body.token) })
    })
    expect((await post(auth, 'update-user', own.cookie, { name: 'Ada L.' })).status).toBe(200)
    expect(revoked?.status).toBe(200)
    expect(await race.inner.get(keyOf(stolen.body.token))).toBeNull()
    expect((await getSession(auth, stolen.cookie)).body).toBeNull()
    expect((await getSession(auth, own.cookie)).body?.user.name).toBe('Ada L.')
  })
})

describe('a copy written with a user read before a change of the user is taken back (review N6)', () => {
  it('update-user racing a read that missed the store: the next read shows the new name', async () => {
    const racing = racingStorage()
    const auth = accountAuth({ secondaryStorage: racing.storage })
    const { cookie, body } = await signUp(auth, { email: 'stale@example.com', name: 'Old Name' })
    const key = keyOf(body.token as string)
    await racing.inner.delete(key)
    auth.clock.advance(1000)
    // The read misses the store and reads (session, user); before it writes its copy, the user changes.
    racing.onSet(key, async () => {
      const updated = await post(auth, 'update-user', cookie, { name: 'New Name' })
      expect(updated.status).toBe(200)
    })
    const read = await getSession(auth, cookie)
    expect(read.body.user.name).toBe('Old Name')
    const stored = await racing.inner.get(key)
    expect(stored === null || JSON.parse(stored).user.name === 'New Name').toBe(true)
    expect((await getSession(auth, cookie)).body.user.name).toBe('New Name')
  })
})

describe('with the store unreachable, a revocation fails instead of holding in one process only', () => {
  /** Two auths ("processes") on one database and one store, each with its own memory of failed deletes. */
  function twoProcesses() {
    const race = racingStorage()
    const database = sharedDatabase()
    const a = accountAuth({ database, secondaryStorage: race.storage })
    const b = accountAuth({ database, secondaryStorage: race.storage })
    return { race, a, b }
  }

  it('sign-out: 503 with Retry-After and the cookies kept, nothing deleted; once the store is back the retry holds everywhere', async () => {
    const { race, a, b } = twoProcesses()
    const session = await signUp(a, { email: 'ada@example.com' })
    expect((await getSession(b, session.cookie)).body?.user.email).toBe('ada@example.com')

    race.setDown('all')
    const refused = await a.handler(authed('/api/auth/sign-out', session.cookie, { json: {} }))
    const answer = await browserAnswer(refused, session.cookie)
    expect(answer.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('3')
    expect(answer.body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable. Please try again shortly.' })
    // No clearing Set-Cookie: the browser keeps the cookie it needs to retry the sign-out (docs/security.md#sign-out-during-a-storage-outage).
    expect(refused.headers.getSetCookie()).toEqual([])
    expect(answer.cookie).toBe(session.cookie)
    expect(await sessionRows(a)).toHaveLength(1)
    race.setDown(false)

    // Not revoked, and every process agrees: no process holds a revocation the others cannot see.
    expect((await getSession(b, session.cookie)).body?.user.email).toBe('ada@example.com')
    const retried = await a.handler(authed('/api/auth/sign-out', answer.cookie, { json: {} }))
    expect(retried.status).toBe(200)
    expect((await browserAnswer(retried, answer.cookie)).cookie).toBe('')
    expect((await getSession(b, session.cookie)).body).toBeNull()
    expect(await race.inner.get(keyOf(session.body.token))).toBeNull()
  })

  it('revoke-session, revoke-sessions, change-password and reset-password: 503, rolled back, and retried once the store is back', async () => {
    const { race, a, b } = twoProcesses()
    const stolen = await signUp(a, { email: 'ada@example.com' })
    const own = await signIn(a, { email: 'ada@example.com' })
    const stolenHandle = hashSessionToken(stolen.body.token)
    await a.handler(request('/api/auth/request-password-reset', { json: { email: 'ada@example.com' }, headers: { origin: BASE } }))
    const resetToken = a.mailbox.last('reset-password')?.token ?? ''

    race.setDown('all')
    expect((await post(a, 'revoke-session', own.cookie, { token: stolenHandle })).status).toBe(503)
    expect((await post(a, 'revoke-sessions', own.cookie)).status).toBe(503)
    const change = { currentPassword: 'correct horse battery', newPassword: NEW_PASSWORD, revokeOtherSessions: true }
    expect((await post(a, 'change-password', own.cookie, change)).status).toBe(503)
    const reset = () => a.handler(request('/api/auth/reset-password', { json: { newPassword: NEW_PASSWORD, token: resetToken }, headers: { origin: BASE } }))
    expect((await reset()).status).toBe(503)
    expect(await sessionRows(a)).toHaveLength(2)
    race.setDown(false)

    // Nothing happened: the old password, both sessions and the reset link still work.
    expect((await signIn(b, { email: 'ada@example.com' })).response.status).toBe(200)
    expect((await getSession(b, stolen.cookie)).body?.user.email).toBe('ada@example.com')
    expect((await reset()).status).toBe(200)
    expect((await getSession(b, stolen.cookie)).body).toBeNull()
    expect((await getSession(a, own.cookie)).body).toBeNull()
  })

  it('a delete that fails only after the commit does not undo the answered revocation in this process', async () => {
    const { race, a } = twoProcesses()
    const session = await signUp(a, { email: 'ada@example.com' })
    // The delete before the commit succeeds, the one after it fails.
    race.setDown('after-first-delete')
    expect((await post(a, 'sign-out', session.cookie)).status).toBe(200)
    race.setDown(false)
    expect(await sessionRows(a)).toEqual([])
    expect((await getSession(a, session.cookie)).body).toBeNull()
  })

  it('other faults still degrade to the database: an expired session is dropped without a 503', async () => {
    const { race, a } = twoProcesses()
    const session = await signUp(a, { email: 'ada@example.com' })
    a.clock.advance(8 * DAY)
    race.setDown('all')
    const expired = await getSession(a, session.cookie)
    expect(expired.status).toBe(200)
    expect(expired.body).toBeNull()
    expect(await sessionRows(a)).toEqual([])
  })
})
