/**
 * Cold start (docs/billing.md#outbound-calls): loading the plugin, creating
 * the auth and serving the reading routes do not load the platform SDK; the
 * first outbound call does, once.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { startPlatformMock, type PlatformMock } from './platform-mock.js'

let loads = 0
vi.mock('@polar-sh/sdk/core.js', async (importOriginal) => {
  loads += 1
  return importOriginal()
})

let mock: PlatformMock
beforeAll(async () => {
  mock = await startPlatformMock()
})
afterAll(() => mock.close())

it('the SDK loads on the first outbound call, not with the plugin', async () => {
  const { outboundAuth } = await import('./fixtures/outbound.js')
  const { newUser, get } = await import('./fixtures/harness.js')
  const { authed } = await import('../../core/test/accounts.js')
  const auth = outboundAuth(mock, { createCustomerOnSignUp: false })
  const user = await newUser(auth)
  expect((await get(auth, '/customer/state', user)).status).toBe(200)
  expect(loads).toBe(0)
  const checkout = () => auth.handler(authed('/api/auth/checkout', user.cookie, { method: 'POST', json: { slug: 'pro' } }))
  expect((await Promise.all([checkout(), checkout()])).map((response) => response.status)).toEqual([200, 200])
  expect(loads).toBe(1)
})
