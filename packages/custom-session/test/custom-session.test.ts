/**
 * Custom session fields through `auth.handler` and `auth.api`: the answer
 * carries them at top level, the cookie cache stores them (a hit answers
 * them without calling the function), an answer too large for the cookie is
 * never cached (one warning), and nothing but get-session changes.
 */
import { memoryStorage, type SessionWithUser } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { accountAuth, cookieHeader, signUp } from '../../core/test/accounts.js'
import { request } from '../../core/test/helpers.js'
import { customSession } from '../src/plugin.js'

type Log = { level: string; message: string; meta?: Record<string, unknown> }

function sessionAuth(extra: (data: SessionWithUser) => Record<string, unknown> = ({ user }) => ({ roles: ['editor'], plan: `pro-${user.name}` }), cache = true) {
  const calls: SessionWithUser[] = []
  const logs: Log[] = []
  const auth = accountAuth({
    session: { cookieCache: { enabled: cache, maxAge: 60 } },
    logger: { level: 'warn', log: (level, message, meta) => logs.push({ level, message, ...(meta ? { meta } : {}) }) },
    plugins: [
      customSession(async (data) => {
        calls.push(data)
        return extra(data) as { roles: string[]; plan: string }
      }),
    ],
  })
  return Object.assign(auth, { calls, logs })
}

async function getSession(auth: { handler(request: Request): Promise<Response> }, cookie: string, query = '') {
  const response = await auth.handler(request(`/api/auth/get-session${query}`, { headers: { cookie } }))
  return { status: response.status, body: await response.json(), setCookies: response.headers.getSetCookie(), cookie: cookieHeader(response, cookie) }
}

const cacheCookie = (lines: readonly string[]) => lines.find((line) => line.startsWith('gatehouse.session_data='))

describe('get-session with custom fields', () => {
  it('answers { session, user, ...fields } from a function of the caller\'s session and user', async () => {
    const auth = sessionAuth(undefined, false)
    const { body: signedUp, cookie } = await signUp(auth, { email: 'ada@example.com', name: 'Ada' })
    const answer = await getSession(auth, cookie)
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body)).toEqual(['session', 'user', 'roles', 'plan'])
    expect(answer.body).toMatchObject({ user: { id: signedUp.user.id, email: 'ada@example.com' }, roles: ['editor'], plan: 'pro-Ada' })
    expect(auth.calls).toHaveLength(1)
    expect(auth.calls[0]!.user.id).toBe(signedUp.user.id)
    expect(auth.calls[0]!.session.userId).toBe(signedUp.user.id)
    expect(auth.calls[0]!.session.expiresAt).toBeInstanceOf(Date)
  })

  it('answers null without a session, without calling the function', async () => {
    const auth = sessionAuth()
    const answer = await getSession(auth, '')
    expect(answer).toMatchObject({ status: 200, body: null })
    expect(auth.calls).toHaveLength(0)
  })

  it('auth.api.getSession answers the same fields', async () => {
    const auth = sessionAuth(undefined, false)
    const { cookie } = await signUp(auth, { email: 'api@example.com', name: 'Api' })
    const answer = await auth.api.getSession({ headers: { cookie } })
    expect(answer).toMatchObject({ user: { email: 'api@example.com' }, roles: ['editor'], plan: 'pro-Api' })
  })

  it('keeps core\'s session and user: the function cannot replace them', async () => {
    const auth = sessionAuth(() => ({ user: 'mallory', session: null, tier: 1 }), false)
    const { cookie } = await signUp(auth, { email: 'keep@example.com' })
    const answer = await getSession(auth, cookie)
    expect(answer.body.user).toMatchObject({ email: 'keep@example.com' })
    expect(answer.body.session).toMatchObject({ userId: answer.body.user.id })
    expect(answer.body.tier).toBe(1)
  })

  it('answers 500 when the function throws, and caches nothing', async () => {
    const auth = sessionAuth(() => {
      throw new Error('roles service down')
    })
    const { cookie } = await signUp(auth, { email: 'fail@example.com' })
    const answer = await getSession(auth, cookie, '?disableCookieCache=true')
    expect(answer.status).toBe(500)
    expect(cacheCookie(answer.setCookies)).toBeUndefined()
  })

  it('leaves list-sessions alone', async () => {
    const auth = sessionAuth()
    const { cookie } = await signUp(auth, { email: 'list@example.com' })
    const response = await auth.handler(request('/api/auth/list-sessions', { headers: { cookie } }))
    const sessions = await response.json()
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).not.toHaveProperty('roles')
    expect(auth.calls).toHaveLength(0)
  })

  it('two plugins customising the answer are refused at start-up', () => {
    expect(() =>
      accountAuth({ plugins: [customSession(() => ({ a: 1 })), { ...customSession(() => ({ b: 2 })), id: 'second' }] }),
    ).toThrow('Only one plugin may customise the get-session answer')
  })
})

describe('the cookie cache', () => {
  it('stores the customised answer: a hit answers the same fields without calling the function', async () => {
    const auth = sessionAuth()
    const { cookie: signedUp } = await signUp(auth, { email: 'cache@example.com', name: 'Cache' })
    // Sign-up wrote a cache without the fields: the first get-session computes and rewrites it.
    const first = await getSession(auth, signedUp)
    expect(auth.calls).toHaveLength(1)
    expect(cacheCookie(first.setCookies)).toMatch(/Max-Age=60/)
    const payload = JSON.parse(Buffer.from(cacheCookie(first.setCookies)!.split('=')[1]!.split('.')[0]!, 'base64url').toString())
    expect(payload.extra).toEqual({ roles: ['editor'], plan: 'pro-Cache' })

    const second = await getSession(auth, first.cookie)
    expect(second.body).toEqual(first.body)
    expect(auth.calls).toHaveLength(1)

    // Past the cache's own expiry the function runs again.
    auth.clock.advance(61_000)
    await getSession(auth, first.cookie)
    expect(auth.calls).toHaveLength(2)
  })

  it('a refresh during get-session writes one cache cookie, with the fields', async () => {
    const auth = sessionAuth()
    const { cookie } = await signUp(auth, { email: 'refresh@example.com', name: 'Ref' })
    // Past the default update age (one day): the session is extended on this read.
    auth.clock.advance(25 * 60 * 60 * 1000)
    const answer = await getSession(auth, cookie)
    expect(answer.setCookies.filter((line) => line.startsWith('gatehouse.session_token='))).toHaveLength(1)
    const caches = answer.setCookies.filter((line) => line.startsWith('gatehouse.session_data='))
    expect(caches).toHaveLength(1)
    const payload = JSON.parse(Buffer.from(caches[0]!.split('=')[1]!.split('.')[0]!, 'base64url').toString())
    expect(payload.extra).toEqual({ roles: ['editor'], plan: 'pro-Ref' })
    expect(new Date(answer.body.session.expiresAt).getTime()).toBeGreaterThan(auth.clock.now().getTime() + 6 * 24 * 60 * 60 * 1000)
  })

  it('disableCookieCache reads the store and calls the function', async () => {
    const auth = sessionAuth()
    const { cookie } = await signUp(auth, { email: 'fresh@example.com' })
    const first = await getSession(auth, cookie)
    await getSession(auth, first.cookie, '?disableCookieCache=true')
    expect(auth.calls).toHaveLength(2)
  })

  it('a cache written without the fields (by update-user) is rewritten with them', async () => {
    const auth = sessionAuth()
    const { cookie } = await signUp(auth, { email: 'update@example.com', name: 'Before' })
    const first = await getSession(auth, cookie)
    const updated = await auth.handler(request('/api/auth/update-user', { json: { name: 'After' }, headers: { cookie: first.cookie, origin: 'http://localhost:3000' } }))
    expect(updated.status).toBe(200)
    const afterUpdate = cookieHeader(updated, first.cookie)
    const answer = await getSession(auth, afterUpdate)
    expect(answer.body).toMatchObject({ user: { name: 'After' }, plan: 'pro-After' })
    expect(auth.calls).toHaveLength(2)
    await getSession(auth, answer.cookie)
    expect(auth.calls).toHaveLength(2)
  })

  it('refuses to cache an answer too large for the cookie, with one warning, and never writes an oversize cookie', async () => {
    const auth = sessionAuth(() => ({ bio: 'x'.repeat(5000) }))
    const { cookie } = await signUp(auth, { email: 'big@example.com' })
    const first = await getSession(auth, cookie)
    expect(first.body.bio).toHaveLength(5000)
    const cache = cacheCookie(first.setCookies)
    // The plain cache sign-up wrote is deleted, not replaced.
    expect(cache).toMatch(/^gatehouse\.session_data=;.*Max-Age=0/i)
    for (const line of first.setCookies) expect(line.length).toBeLessThan(4093)

    const second = await getSession(auth, first.cookie)
    expect(second.body.bio).toHaveLength(5000)
    expect(auth.calls).toHaveLength(2)
    expect(cacheCookie(second.setCookies) ?? '').not.toMatch(/^gatehouse\.session_data=[^;]/)
    const warnings = auth.logs.filter((log) => log.level === 'warn')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.message).toMatch(/do not fit the cookie cache/)
    expect(JSON.stringify(warnings[0])).not.toContain('xxxx')
  })

  it('with secondary storage, the store keeps core\'s rows and the function runs on each store read', async () => {
    const storage = memoryStorage()
    const calls: number[] = []
    const auth = accountAuth({
      secondaryStorage: storage,
      plugins: [customSession(() => ({ n: calls.push(1) }))],
    })
    const { cookie } = await signUp(auth, { email: 'kv@example.com' })
    expect((await getSession(auth, cookie)).body.n).toBe(1)
    expect((await getSession(auth, cookie)).body.n).toBe(2)
    const { db } = await auth.$context
    const [session] = await db.findMany<{ token: string }>({ model: 'session' })
    const stored = await storage.get(`session:${session!.token}`)
    expect(stored).toBeTruthy()
    expect(String(stored)).not.toContain('"n"')
  })
})
