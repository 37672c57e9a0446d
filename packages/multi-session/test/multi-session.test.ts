import { describe, expect, it } from 'vitest'
import { accountAuth, browserAnswer, PASSWORD } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import { multiSession } from '../src/plugin.js'

function multiAuth(maximumSessions?: number) {
  return accountAuth({ plugins: [multiSession(maximumSessions === undefined ? {} : { maximumSessions })] })
}

type Auth = ReturnType<typeof multiAuth>

/** One browser: its cookies carried from answer to answer. */
function browser(auth: Auth) {
  let cookie = ''
  const call = async (path: string, init: { json?: unknown; origin?: string } = {}) => {
    const headers: Record<string, string> = { origin: init.origin ?? BASE }
    if (cookie) headers.cookie = cookie
    const answer = await browserAnswer(
      await auth.handler(request(`/api/auth${path}`, init.json === undefined ? { headers } : { json: init.json, headers })),
      cookie,
    )
    cookie = answer.cookie
    return answer
  }
  return {
    call,
    get cookie() {
      return cookie
    },
    signUp: (email: string) => call('/sign-up/email', { json: { email, password: PASSWORD, name: email.split('@')[0] } }),
    signIn: (email: string) => call('/sign-in/email', { json: { email, password: PASSWORD } }),
    active: async () => (await call('/get-session')).body?.user?.email as string | undefined,
    accounts: async () => ((await call('/multi-session/list-device-sessions')).body as { session: { token: string }; user: { email: string } }[]),
  }
}

describe('several accounts in one browser', () => {
  it('lists each account signed in here; switches; the latest sign-in is active', async () => {
    const auth = multiAuth()
    const tab = browser(auth)
    await tab.signUp('work@example.com')
    await tab.signUp('home@example.com')
    expect(await tab.active()).toBe('home@example.com')
    const accounts = await tab.accounts()
    expect(accounts.map((entry) => entry.user.email).sort()).toEqual(['home@example.com', 'work@example.com'])
    const work = accounts.find((entry) => entry.user.email === 'work@example.com')!
    const switched = await tab.call('/multi-session/set-active', { json: { sessionToken: work.session.token } })
    expect(switched.body.user.email).toBe('work@example.com')
    expect(await tab.active()).toBe('work@example.com')
  })

  it('revoking the active account makes another active; revoking another leaves the active one', async () => {
    const auth = multiAuth()
    const tab = browser(auth)
    await tab.signUp('a@example.com')
    await tab.signUp('b@example.com')
    await tab.signUp('c@example.com')
    const accounts = await tab.accounts()
    const token = (email: string) => accounts.find((entry) => entry.user.email === email)!.session.token
    expect((await tab.call('/multi-session/revoke', { json: { sessionToken: token('a@example.com') } })).body).toEqual({ status: true })
    expect(await tab.active()).toBe('c@example.com')
    await tab.call('/multi-session/revoke', { json: { sessionToken: token('c@example.com') } })
    expect(await tab.active()).toBe('b@example.com')
    expect((await tab.accounts()).map((entry) => entry.user.email)).toEqual(['b@example.com'])
    const { db } = await auth.$context
    expect(await db.count({ model: 'session' })).toBe(1)
  })

  it('sign-out ends every account of the browser', async () => {
    const auth = multiAuth()
    const tab = browser(auth)
    await tab.signUp('a@example.com')
    await tab.signUp('b@example.com')
    await tab.call('/sign-out', { json: {} })
    expect(await tab.active()).toBeUndefined()
    expect(await tab.accounts()).toEqual([])
    const { db } = await auth.$context
    expect(await db.count({ model: 'session' })).toBe(0)
  })

  it('signing in again to an account held replaces its older session', async () => {
    const auth = multiAuth()
    const tab = browser(auth)
    await tab.signUp('a@example.com')
    await tab.signUp('b@example.com')
    await tab.signIn('a@example.com')
    expect((await tab.accounts()).map((entry) => entry.user.email).sort()).toEqual(['a@example.com', 'b@example.com'])
    const { db } = await auth.$context
    expect(await db.count({ model: 'session' })).toBe(2)
  })

  it('holds at most maximumSessions accounts', async () => {
    const auth = multiAuth(2)
    const tab = browser(auth)
    await tab.signUp('a@example.com')
    await tab.signUp('b@example.com')
    await tab.signUp('c@example.com')
    expect(await tab.accounts()).toHaveLength(2)
  })

  it("a session revoked elsewhere (a password reset) leaves the list; another browser's session cannot be switched to", async () => {
    const auth = multiAuth()
    const tab = browser(auth)
    await tab.signUp('a@example.com')
    await tab.signUp('b@example.com')
    const { db } = await auth.$context
    const a = await db.findOne<{ id: string }>({ model: 'user', where: { field: 'email', value: 'a@example.com' } })
    await db.deleteMany({ model: 'session', where: { field: 'userId', value: a!.id } })
    expect((await tab.accounts()).map((entry) => entry.user.email)).toEqual(['b@example.com'])

    const other = browser(auth)
    await other.signUp('x@example.com')
    const foreign = (await other.accounts())[0]!.session.token
    expect(await tab.call('/multi-session/set-active', { json: { sessionToken: foreign } })).toMatchObject({ status: 401, body: { code: 'INVALID_SESSION_TOKEN' } })
  })

  it('a forged account cookie is nobody; a cross-site page cannot switch accounts', async () => {
    const auth = multiAuth()
    const tab = browser(auth)
    await tab.signUp('a@example.com')
    const [entry] = await tab.accounts()
    const forged = `${tab.cookie}; gatehouse.session_token_multi-abc=${encodeURIComponent('stolen.signature')}`
    const answer = await browserAnswer(await auth.handler(request('/api/auth/multi-session/list-device-sessions', { headers: { cookie: forged } })))
    expect(answer.body).toHaveLength(1)
    const crossSite = await tab.call('/multi-session/set-active', { json: { sessionToken: entry!.session.token }, origin: 'https://evil.example' })
    expect(crossSite.status).toBe(403)
  })
})
