import { describe, expect, it } from 'vitest'
import type { GatehousePlugin } from '../src/plugins/types.js'
import { memoryAdapter } from '../src/db/memory/index.js'
import { memoryStorage } from '../src/storage/memory-storage.js'
import { accountAuth, authed, cookieHeader, signIn, signUp } from './accounts.js'
import { countingAdapter } from './counting-adapter.js'

const DAY = 24 * 60 * 60 * 1000

async function getSession(auth: { handler(request: Request): Promise<Response> }, cookie: string, query = '') {
  const response = await auth.handler(authed(`/api/auth/get-session${query}`, cookie))
  return { response, body: await response.json() }
}

describe('GET /get-session', () => {
  it('null without a cookie, or with a forged one', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    expect((await getSession(auth, '')).body).toBeNull()
    expect((await getSession(auth, 'gatehouse.session_token=abc.def')).body).toBeNull()
  })

  it('on the database path costs one query (session joined with user) when no refresh is due', async () => {
    const counting = countingAdapter(memoryAdapter())
    const auth = accountAuth({ database: counting.factory })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const calls = await counting.during(() => getSession(auth, cookie))
    expect(calls).toEqual(['findOne:session'])
  })

  it('refreshes after updateAge: extends expiry, writes once, re-sets the cookie', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { adapter } = await auth.$context
    const [before] = await adapter.findMany({ model: 'session' })
    auth.clock.advance(DAY / 2)
    const early = await getSession(auth, cookie)
    expect(early.response.headers.getSetCookie()).toEqual([])
    expect((await adapter.findMany({ model: 'session' }))[0]?.updatedAt).toEqual(before?.updatedAt)

    auth.clock.advance(DAY / 2 + 1000)
    const due = await getSession(auth, cookie)
    expect(due.response.headers.getSetCookie()[0]).toMatch(/^gatehouse\.session_token=.*Max-Age=604800/)
    const [after] = await adapter.findMany({ model: 'session' })
    expect((after?.expiresAt as Date).getTime()).toBe(auth.clock.now().getTime() + 7 * DAY)
    expect(new Date(due.body.session.expiresAt).getTime()).toBe(auth.clock.now().getTime() + 7 * DAY)
  })

  it('disableRefresh and the do-not-remember cookie both prevent refresh', async () => {
    const auth = accountAuth()
    await signUp(auth, { email: 'ada@example.com' })
    const remembered = await signIn(auth, { email: 'ada@example.com' })
    const forgetful = await signIn(auth, { email: 'ada@example.com', rememberMe: false })
    auth.clock.advance(DAY + 1000)
    const skipped = await getSession(auth, remembered.cookie, '?disableRefresh=true')
    expect(skipped.response.headers.getSetCookie()).toEqual([])
    expect(skipped.body.user.email).toBe('ada@example.com')
    const browserSession = await getSession(auth, forgetful.cookie)
    expect(browserSession.response.headers.getSetCookie()).toEqual([])
  })

  it('an expired session is deleted and its cookies cleared with Max-Age=0', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    auth.clock.advance(7 * DAY + 1000)
    const { response, body } = await getSession(auth, cookie)
    expect(body).toBeNull()
    const cleared = response.headers.getSetCookie()
    expect(cleared.some((line) => /^gatehouse\.session_token=;.*Max-Age=0/.test(line))).toBe(true)
    const { adapter } = await auth.$context
    expect(await adapter.count({ model: 'session' })).toBe(0)
  })

  it('the cookie cache serves get-session without a query until it expires; disableCookieCache reads the store', async () => {
    const counting = countingAdapter(memoryAdapter())
    const auth = accountAuth({ database: counting.factory, session: { cookieCache: { enabled: true } } })
    const up = await signUp(auth, { email: 'ada@example.com' })
    expect(up.cookie).toContain('gatehouse.session_data=')
    const cached = await counting.during(() => getSession(auth, up.cookie))
    expect(cached).toEqual([])
    expect(await counting.during(() => getSession(auth, up.cookie, '?disableCookieCache=true'))).toEqual(['findOne:session'])
    auth.clock.advance(61_000)
    let fresh: Response | undefined
    expect(await counting.during(async () => (fresh = (await getSession(auth, up.cookie)).response))).toEqual(['findOne:session'])
    expect(fresh?.headers.getSetCookie().some((line) => line.startsWith('gatehouse.session_data='))).toBe(true)
  })

  it('a cache cookie from another session is not accepted for this token', async () => {
    const counting = countingAdapter(memoryAdapter())
    const auth = accountAuth({ database: counting.factory, session: { cookieCache: { enabled: true } } })
    const ada = await signUp(auth, { email: 'ada@example.com' })
    const bob = await signUp(auth, { email: 'bob@example.com' })
    const adaToken = ada.cookie.split('; ').find((pair) => pair.startsWith('gatehouse.session_token='))
    const bobCache = bob.cookie.split('; ').find((pair) => pair.startsWith('gatehouse.session_data='))
    const mixed = `${adaToken}; ${bobCache}`
    const calls = await counting.during(async () => {
      const { body } = await getSession(auth, mixed)
      expect(body.user.email).toBe('ada@example.com')
    })
    expect(calls).toEqual(['findOne:session'])
  })

  it('a stolen cache cookie is worth nothing without the token it was issued for', async () => {
    const counting = countingAdapter(memoryAdapter())
    const auth = accountAuth({ database: counting.factory, session: { cookieCache: { enabled: true } } })
    const ada = await signUp(auth, { email: 'ada@example.com' })
    const adaCache = ada.cookie.split('; ').find((pair) => pair.startsWith('gatehouse.session_data='))
    expect((await getSession(auth, ada.cookie)).body.user.email).toBe('ada@example.com')
    // A made-up token, signed or not, with Ada's genuine cache cookie.
    for (const token of ['A'.repeat(32), `${'A'.repeat(32)}.${'B'.repeat(43)}`]) {
      const calls = await counting.during(async () => {
        const { body } = await getSession(auth, `gatehouse.session_token=${token}; ${adaCache}`)
        expect(body).toBeNull()
      })
      // Not the cache's session, and no valid signature: refused before any query.
      expect(calls).toEqual([])
    }
  })

  it('a tampered cache cookie is verified and refused, even right after the genuine one was served', async () => {
    const counting = countingAdapter(memoryAdapter())
    const auth = accountAuth({ database: counting.factory, session: { cookieCache: { enabled: true } } })
    const ada = await signUp(auth, { email: 'ada@example.com' })
    expect(await counting.during(() => getSession(auth, ada.cookie))).toEqual([])
    const tampered = ada.cookie.replace(/(gatehouse\.session_data=)(.)/, (_, name: string, first: string) => `${name}${first === 'A' ? 'B' : 'A'}`)
    expect(tampered).not.toBe(ada.cookie)
    const calls = await counting.during(async () => {
      const { body } = await getSession(auth, tampered)
      expect(body.user.email).toBe('ada@example.com')
    })
    // Not served from the cache: read from the store with the (valid) token.
    expect(calls).toEqual(['findOne:session'])
  })

  it('the cache stays under the cookie size limit: a huge user is not cached', async () => {
    const auth = accountAuth({
      session: { cookieCache: { enabled: true } },
      user: { additionalFields: { bio: { type: 'string', required: false } } },
    })
    const { response } = await signUp(auth, { email: 'ada@example.com', bio: 'x'.repeat(5000) })
    const cookies = response.headers.getSetCookie()
    expect(cookies.some((line) => line.startsWith('gatehouse.session_data=') && !/Max-Age=0/.test(line))).toBe(false)
    for (const line of cookies) expect(line.length).toBeLessThan(4093)
  })

  it('sensitive routes never trust the cache: a revoked session cannot revoke others', async () => {
    const auth = accountAuth({ session: { cookieCache: { enabled: true } } })
    const first = await signUp(auth, { email: 'ada@example.com' })
    const second = await signIn(auth, { email: 'ada@example.com' })
    await auth.handler(authed('/api/auth/revoke-sessions', second.cookie, { method: 'POST' }))
    const attempt = await auth.handler(authed('/api/auth/revoke-other-sessions', first.cookie, { method: 'POST' }))
    expect(attempt.status).toBe(401)
  })
})

describe("a plugin's hard end (sessionEnd)", () => {
  const HOUR = 60 * 60 * 1000

  /** Sessions of users in `ended` end at once; every other session ends an hour after its creation. */
  function hardEndAuth(options: { secondaryStorage?: ReturnType<typeof memoryStorage> } = {}) {
    const ended = new Set<string>()
    const plugin: GatehousePlugin = {
      id: 'hard-end',
      sessionEnd: ({ session, user }, ctx) => (ended.has(user.id) ? ctx.clock.now() : new Date(session.createdAt.getTime() + HOUR)),
    }
    return { auth: accountAuth({ plugins: [plugin], session: { updateAge: 600 }, ...options }), ended }
  }

  it('the refresh past updateAge never moves the expiry beyond it, and the session ends there', async () => {
    const { auth } = hardEndAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const { adapter } = await auth.$context
    const [created] = await adapter.findMany({ model: 'session' })
    const end = (created?.createdAt as Date).getTime() + HOUR
    auth.clock.advance(11 * 60 * 1000)
    const refreshed = await getSession(auth, cookie)
    expect(new Date(refreshed.body.session.expiresAt).getTime()).toBe(end)
    expect(refreshed.response.headers.getSetCookie()[0]).toMatch(/^gatehouse\.session_token=.*Max-Age=2940;/)
    auth.clock.advance(40 * 60 * 1000)
    expect((await getSession(auth, cookie)).body.session.expiresAt).toBe(new Date(end).toISOString())
    expect(((await adapter.findMany({ model: 'session' }))[0]?.expiresAt as Date).getTime()).toBe(end)
    auth.clock.advance(9 * 60 * 1000)
    const gone = await getSession(auth, cookie)
    expect(gone.body).toBeNull()
    expect(gone.response.headers.getSetCookie().some((line) => /^gatehouse\.session_token=;.*Max-Age=0/.test(line))).toBe(true)
    expect(await adapter.count({ model: 'session' })).toBe(0)
  })

  it('an end already past ends the session at its next read, from secondary storage too; others are untouched', async () => {
    const storage = memoryStorage()
    const { auth, ended } = hardEndAuth({ secondaryStorage: storage })
    const ada = await signUp(auth, { email: 'ada@example.com' })
    const bob = await signUp(auth, { email: 'bob@example.com' })
    ended.add(ada.body.user.id)
    expect((await getSession(auth, ada.cookie)).body).toBeNull()
    const { adapter } = await auth.$context
    expect(await adapter.count({ model: 'session', where: { field: 'userId', value: ada.body.user.id } })).toBe(0)
    expect((await auth.handler(authed('/api/auth/list-sessions', ada.cookie))).status).toBe(401)
    expect((await getSession(auth, bob.cookie)).body.user.email).toBe('bob@example.com')
  })
})

describe('sessions in secondary storage', () => {
  it('are read from it first, live for the remaining lifetime, and revocation removes them', async () => {
    const storage = memoryStorage({ clock: undefined })
    const counting = countingAdapter(memoryAdapter())
    const auth = accountAuth({ database: counting.factory, secondaryStorage: storage })
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    expect(await counting.during(() => getSession(auth, cookie))).toEqual([])
    const { adapter } = await auth.$context
    const [row] = await adapter.findMany({ model: 'session' })
    expect(await storage.get(`session:${String(row?.token)}`)).not.toBeNull()
    await auth.handler(authed('/api/auth/sign-out', cookie, { method: 'POST' }))
    expect(await storage.get(`session:${String(row?.token)}`)).toBeNull()
    expect((await getSession(auth, cookie)).body).toBeNull()
  })
})

describe('list and revoke', () => {
  async function twoSessions() {
    const auth = accountAuth()
    const first = await signUp(auth, { email: 'ada@example.com' })
    const second = await signIn(auth, { email: 'ada@example.com' })
    const other = await signUp(auth, { email: 'bob@example.com' })
    return { auth, first, second, other }
  }

  it('list-sessions: the caller\'s unexpired sessions, with hashed handles', async () => {
    const { auth, first, second } = await twoSessions()
    const response = await auth.handler(authed('/api/auth/list-sessions', first.cookie))
    const sessions = await response.json()
    expect(sessions).toHaveLength(2)
    const tokens = sessions.map((session: { token: string }) => session.token)
    expect(tokens).not.toContain(first.body.token)
    expect(tokens).not.toContain(second.body.token)
    expect(sessions.every((session: { userId: string }) => session.userId === first.body.user.id)).toBe(true)
    expect((await auth.handler(authed('/api/auth/list-sessions', ''))).status).toBe(401)
  })

  it('revoke-session by handle or raw token; another user\'s session is 401', async () => {
    const { auth, first, second, other } = await twoSessions()
    const list = await (await auth.handler(authed('/api/auth/list-sessions', other.cookie))).json()
    const foreign = await auth.handler(authed('/api/auth/revoke-session', first.cookie, { json: { token: list[0].token } }))
    expect(foreign.status).toBe(401)
    const raw = await auth.handler(authed('/api/auth/revoke-session', first.cookie, { json: { token: other.body.token } }))
    expect(raw.status).toBe(401)
    expect((await getSession(auth, other.cookie)).body).not.toBeNull()

    const revoked = await auth.handler(authed('/api/auth/revoke-session', first.cookie, { json: { token: second.body.token } }))
    expect(revoked.status).toBe(200)
    expect(await revoked.json()).toEqual({ status: true })
    expect((await getSession(auth, second.cookie)).body).toBeNull()
    expect((await getSession(auth, first.cookie)).body).not.toBeNull()
  })

  it('revoke-other-sessions keeps only this one; revoke-sessions ends all and clears cookies', async () => {
    const { auth, first, second, other } = await twoSessions()
    const others = await auth.handler(authed('/api/auth/revoke-other-sessions', first.cookie, { method: 'POST' }))
    expect(await others.json()).toEqual({ status: true })
    expect((await getSession(auth, second.cookie)).body).toBeNull()
    expect((await getSession(auth, first.cookie)).body).not.toBeNull()

    const all = await auth.handler(authed('/api/auth/revoke-sessions', first.cookie, { method: 'POST' }))
    expect(await all.json()).toEqual({ status: true })
    expect(all.headers.getSetCookie().some((line) => /session_token=;.*Max-Age=0/.test(line))).toBe(true)
    expect((await getSession(auth, first.cookie)).body).toBeNull()
    expect((await getSession(auth, other.cookie)).body).not.toBeNull()
  })

  it('sign-out deletes the session and clears the cookies', async () => {
    const auth = accountAuth()
    const { cookie } = await signUp(auth, { email: 'ada@example.com' })
    const response = await auth.handler(authed('/api/auth/sign-out', cookie, { method: 'POST' }))
    expect(await response.json()).toEqual({ success: true })
    const cleared = cookieHeader(response, cookie)
    expect(cleared).toBe('')
    const { adapter } = await auth.$context
    expect(await adapter.count({ model: 'session' })).toBe(0)
  })
})
