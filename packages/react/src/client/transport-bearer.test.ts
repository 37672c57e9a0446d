/**
 * The `bearer` option of the transport (docs/sessions.md#bearer-tokens): a
 * client without cookies sends its stored token as `Authorization: Bearer`,
 * keeps each `set-auth-token` the server answers, and forgets the token after
 * a sign-out.
 */
import { describe, expect, it } from 'vitest'
import { coreRoutes } from './core-routes.js'
import { createTransport, type BearerStorage } from './transport.js'

function recorder(answers: Array<{ status?: number; headers?: Record<string, string>; body: unknown }>) {
  const seen: Headers[] = []
  const fetchImpl = async (_url: URL | RequestInfo, init?: RequestInit) => {
    seen.push(new Headers(init?.headers))
    const next = answers.shift()
    if (!next) throw new Error('no answer left')
    return new Response(JSON.stringify(next.body), { status: next.status ?? 200, headers: { 'content-type': 'application/json', ...next.headers } })
  }
  return { seen, fetch: fetchImpl as typeof fetch }
}

function memoryStorage(initial: string | null = null) {
  const writes: Array<string | null> = []
  let token = initial
  const storage: BearerStorage = {
    getToken: async () => token,
    setToken: (value) => {
      token = value
      writes.push(value)
    },
  }
  return { storage, writes, current: () => token }
}

const USER = { id: 'u1', name: 'Ada', email: 'ada@example.com', emailVerified: false, image: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }
const SESSION = { id: 's1', userId: 'u1', token: 't', expiresAt: '2027-01-01T00:00:00.000Z', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ipAddress: null, userAgent: null }

describe('bearer transport', () => {
  it('keeps the token a sign-in hands over and sends it on the next call', async () => {
    const { storage, writes } = memoryStorage()
    const server = recorder([
      { headers: { 'set-auth-token': 'abc.sig' }, body: { redirect: false, token: 't', user: USER } },
      { body: { session: SESSION, user: USER } },
    ])
    const transport = createTransport({ baseURL: 'https://app.test', fetch: server.fetch, bearer: storage })
    const signIn = await transport.call(coreRoutes.signIn.email, { email: USER.email, password: 'correct horse battery' })
    expect(signIn.error).toBeNull()
    expect(writes).toEqual(['abc.sig'])
    // The sign-in itself went out without a token: there was none yet.
    expect(server.seen[0]?.get('authorization')).toBeNull()

    const session = await transport.call(coreRoutes.getSession, undefined)
    expect(session.error).toBeNull()
    expect(server.seen[1]?.get('authorization')).toBe('Bearer abc.sig')
  })

  it('forgets the token after a sign-out, and not after a failed one', async () => {
    const { storage, writes, current } = memoryStorage('abc.sig')
    const server = recorder([
      { status: 500, body: { code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' } },
      { body: { success: true } },
    ])
    const transport = createTransport({ baseURL: 'https://app.test', fetch: server.fetch, bearer: storage })
    await transport.call(coreRoutes.signOut, undefined)
    expect(current()).toBe('abc.sig')
    await transport.call(coreRoutes.signOut, undefined)
    expect(writes).toEqual([null])
    expect(current()).toBeNull()
  })

  it("never replaces an Authorization header the caller set", async () => {
    const { storage } = memoryStorage('abc.sig')
    const server = recorder([{ body: null }])
    const transport = createTransport({ baseURL: 'https://app.test', fetch: server.fetch, bearer: storage })
    await transport.call(coreRoutes.getSession, undefined, { headers: { authorization: 'Bearer other' } })
    expect(server.seen[0]?.get('authorization')).toBe('Bearer other')
  })

  it('sends no Authorization header without the option', async () => {
    const server = recorder([{ body: null }])
    const transport = createTransport({ baseURL: 'https://app.test', fetch: server.fetch })
    await transport.call(coreRoutes.getSession, undefined)
    expect(server.seen[0]?.get('authorization')).toBeNull()
  })
})
