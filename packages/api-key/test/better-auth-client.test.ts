/**
 * The leading library's own client drives this plugin unchanged (the wire
 * promise of docs/api-key.md#client): `createAuthClient` from
 * `better-auth/client` with `apiKeyClient()` from `@better-auth/api-key/client`,
 * both 1.7.5, the version whose routes this plugin mirrors. Its fetch goes
 * to `auth.handler` through better-fetch's `customFetchImpl`, behind a cookie
 * jar that sends `Origin` on writes as a browser does. The client checks
 * nothing at run time, so the shapes its types promise are asserted here.
 */
import { apiKeyClient } from '@better-auth/api-key/client'
import { createAuthClient } from 'better-auth/client'
import { describe, expect, it } from 'vitest'
import { cookieHeader } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import { keyAuth, type KeyAuth } from './fixtures.js'

function betterAuthClient(auth: KeyAuth) {
  let cookie = ''
  const customFetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const incoming = new Request(input, init)
    const headers = new Headers(incoming.headers)
    if (cookie) headers.set('cookie', cookie)
    if (incoming.method !== 'GET') headers.set('origin', BASE)
    const body = incoming.method === 'GET' ? undefined : await incoming.text()
    const response = await auth.handler(new Request(incoming.url, { method: incoming.method, headers, ...(body ? { body } : {}) }))
    cookie = cookieHeader(response, cookie)
    return response
  }
  return createAuthClient({ baseURL: `${BASE}/api/auth`, plugins: [apiKeyClient()], fetchOptions: { customFetchImpl } })
}

describe("better-auth's apiKeyClient against this plugin", () => {
  it('signs up, then creates, gets, lists, updates and deletes a key; the key then works and then stops', async () => {
    const auth = keyAuth()
    const client = betterAuthClient(auth)
    const signUp = await client.signUp.email({ name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' })
    expect(signUp.error).toBeNull()

    const created = await client.apiKey.create({ name: 'ci', expiresIn: 30 * 86_400, prefix: 'ci_' })
    expect(created.error).toBeNull()
    const key = created.data
    expect(key?.key).toMatch(/^ci_[A-Za-z]{64}$/)
    expect(key).toMatchObject({ name: 'ci', prefix: 'ci_', enabled: true, remaining: null, permissions: null, metadata: null })
    expect(new Date(key?.expiresAt ?? 0).getTime()).toBe(auth.clock.now().getTime() + 30 * 86_400_000)

    const got = await client.apiKey.get({ query: { id: key?.id ?? '' } })
    expect(got.data).toMatchObject({ id: key?.id, name: 'ci', start: key?.key.slice(0, 6) })
    expect(got.data).not.toHaveProperty('key')

    const listed = await client.apiKey.list()
    expect(listed.data).toMatchObject({ total: 1, apiKeys: [{ id: key?.id }] })

    const updated = await client.apiKey.update({ keyId: key?.id ?? '', name: 'ci-renamed' })
    expect(updated.data).toMatchObject({ id: key?.id, name: 'ci-renamed' })

    // A script holding the key.
    const asScript = () => auth.handler(request('/api/auth/get-session', { headers: { 'x-api-key': key?.key ?? '' } }))
    expect((await (await asScript()).json()).user.email).toBe('ada@example.com')

    const refused = await client.apiKey.create({ name: 'x', remaining: 10 })
    expect(refused.error).toMatchObject({ status: 400, code: 'SERVER_ONLY_PROPERTY' })

    const deleted = await client.apiKey.delete({ keyId: key?.id ?? '' })
    expect(deleted.data).toEqual({ success: true })
    expect((await asScript()).status).toBe(401)
  })
})
