/**
 * Upgrading in a real browser (docs/billing.md#outbound-calls): the example
 * server calls a loopback mock of the billing platform (POLAR_SERVER_URL),
 * the user clicks "Upgrade" and lands on the mock's checkout page; the
 * platform then tells the server by signed webhook that the subscription is
 * active, and the billing section shows it. "Manage subscription" opens
 * the mock's customer portal. A failing step leaves a screenshot in
 * examples/e2e/screenshots/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PRODUCT_ID } from '../../../packages/billing/test/fixtures/payloads.js'
import { MOCK_TOKEN, startPlatformMock, type PlatformMock } from '../../../packages/billing/test/platform-mock.js'
import { deliverSubscriptionActive, signedInUserId } from '../src/billing.js'
import { browserSuite, prerequisites, step, submitSignUp } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

describe.skipIf(missing !== null)(`billing upgrade in the browser${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let mock: PlatformMock | undefined
  // Registered before the suite's own beforeAll, so the mock's URL is known when the server starts.
  beforeAll(async () => {
    mock = await startPlatformMock()
  })
  afterAll(() => mock?.close())
  const platform = (): PlatformMock => {
    if (!mock) throw new Error('the platform mock is not started')
    return mock
  }
  const suite = browserSuite({
    env: () => ({ POLAR_ACCESS_TOKEN: MOCK_TOKEN, POLAR_SERVER_URL: platform().url, POLAR_PRODUCTS: `pro=${PRODUCT_ID}` }),
  })

  it('Upgrade lands on the checkout; a signed webhook activates the subscription; Manage subscription opens the portal', async () => {
    const page = await suite.newPage()
    await step(page, 'billing-signs-up', async () => {
      await submitSignUp(page, 'Grace Hopper', 'grace@example.com', 'correct horse battery')
      await page.getByRole('heading', { name: 'Hello, Grace Hopper' }).waitFor()
      await page.getByText('No active subscription.').waitFor()
    })
    const userId = await signedInUserId(page)
    await step(page, 'billing-upgrades', async () => {
      await page.getByRole('button', { name: 'Upgrade' }).click()
      await page.waitForURL(`${platform().url}/checkout/**`)
      await page.getByRole('heading', { name: 'Mock checkout' }).waitFor()
      // Grace has not verified her address: the platform is not told it (docs/billing.md), its page asks for one.
      expect(platform().checkouts.at(-1)).toMatchObject({ product_id: PRODUCT_ID, external_customer_id: userId, customer_email: null })
      // The customer was created at sign-up, once, by external id.
      expect([...platform().customers.values()].filter((customer) => customer.external_id === userId)).toHaveLength(1)
      expect(platform().invalid).toEqual([])
    })
    await step(page, 'billing-webhook-activates', async () => {
      const delivered = await deliverSubscriptionActive(suite.server.url, userId, 'msg_e2e_upgrade_subscription_active')
      expect(delivered.status).toBe(200)
      // Back from the checkout (its success URL is the app): the billing section reads the mirror.
      await page.goto(`${suite.server.url}/?checkout=success`)
      await page.getByText(`Subscription ${PRODUCT_ID}: active`).waitFor()
      expect(await page.getByRole('button', { name: 'Upgrade' }).count()).toBe(0)
    })
    await step(page, 'billing-manages-subscription', async () => {
      await page.getByRole('button', { name: 'Manage subscription' }).click()
      await page.waitForURL(`${platform().url}/portal/**`)
      await page.getByRole('heading', { name: 'Mock customer portal' }).waitFor()
    })
  })
})
