/**
 * The client's outbound calls (docs/billing.md#client): `client.checkout()`
 * and `client.portal()` answer `{ url, redirect }` and send the browser
 * there (here through `navigate`), unless `disableRedirect`;
 * `client.usage.ingest()` answers the idempotency key. Refusals keep
 * billing's codes.
 */
import { createAuthClient } from '@gatehouse/react'
import { organizationClient } from '@gatehouse/organization/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BASE } from '../../core/test/helpers.js'
import { browser } from '../../react/test/browser.js'
import { billingClient } from '../src/client.js'
import { startPlatformMock, type PlatformMock } from './platform-mock.js'
import { outboundAuth, PRO_PRODUCT } from './fixtures/outbound.js'

let mock: PlatformMock
beforeAll(async () => {
  mock = await startPlatformMock()
})
afterAll(() => mock.close())

let counter = 0

async function signedIn() {
  const auth = outboundAuth(mock)
  const tab = browser(auth)
  const visited: string[] = []
  const client = createAuthClient<typeof auth>({
    baseURL: BASE,
    fetch: tab.fetch,
    navigate: (url) => void visited.push(url),
    plugins: [organizationClient(), billingClient()],
  })
  const { data, error } = await client.signUp.email({ name: 'Ada', email: `outbound-client${++counter}@example.com`, password: 'correct horse battery' })
  if (error) throw new Error(error.message)
  await auth.billingPlugin.idle()
  return { auth, client, visited, userId: data.user.id }
}

describe('client outbound calls', () => {
  it('checkout(): the platform checkout URL, followed', async () => {
    const { client, visited, userId } = await signedIn()
    const { data, error } = await client.checkout({ slug: 'pro' })
    expect(error).toBeNull()
    const checkout = mock.checkouts.at(-1)
    expect(data).toEqual({ url: checkout?.url, redirect: true })
    expect(checkout).toMatchObject({ product_id: PRO_PRODUCT, external_customer_id: userId })
    expect(visited).toEqual([checkout?.url])
  })

  it('checkout({ disableRedirect }) does not navigate; a bad success URL is INVALID_SUCCESS_URL', async () => {
    const { client, visited } = await signedIn()
    expect((await client.checkout({ slug: 'pro', disableRedirect: true })).data).toMatchObject({ redirect: false })
    expect(await client.checkout({ slug: 'pro', successUrl: 'https://evil.test/' })).toMatchObject({ data: null, error: { status: 403, code: 'INVALID_SUCCESS_URL' } })
    expect(visited).toEqual([])
  })

  it('portal(): the customer portal URL, followed', async () => {
    const { client, visited } = await signedIn()
    const { data } = await client.portal()
    const session = mock.sessions.at(-1)
    expect(data).toEqual({ url: session?.customer_portal_url, redirect: true })
    expect(visited).toEqual([session?.customer_portal_url])
  })

  it('usage.ingest(): accepted with its idempotency key', async () => {
    const { client, userId } = await signedIn()
    const { data } = await client.usage.ingest({ event: 'api_call', metadata: { tokens: 42 } })
    expect(data).toEqual({ ingested: true, idempotencyKey: expect.stringMatching(/^[A-Za-z0-9]{22}$/) })
    expect(mock.events.get(`${userId}:${data?.idempotencyKey}`)).toMatchObject({ name: 'api_call', metadata: { tokens: 42 } })
  })
})
