/**
 * examples/express in Chromium, started as its README says (`node dist/main.js`):
 * sign up, the protected page and `GET /api/me`, sign out and back to sign-in,
 * sign in again; the billing webhook beside the app's routes, signed and
 * not; and four wrong passwords from one browser, the fourth refused with 429
 * because toNodeHandler hands Gatehouse the socket's address.
 */
import { describe, expect, it } from 'vitest'
import { deliverSubscriptionActive } from '../src/billing.js'
import { accountPage, describeRateLimits, printedLink, signInPage, spoofedSignIn, submitSignIn } from '../src/framework-pages.js'
import { browserSuiteOn, frameworkPrerequisites, startFrameworkExample, step, submitSignUp, WEBHOOK_SECRET } from '../src/harness.js'

const missing = frameworkPrerequisites('express')
if (missing) console.info(`[e2e] express example skipped: ${missing}`)

const PASSWORD = 'correct horse battery'

describe.skipIf(missing !== null)(`examples/express${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuiteOn(() => startFrameworkExample('express', { env: { BILLING_WEBHOOK_SECRET: WEBHOOK_SECRET } }))

  it('signs up, opens the protected page, signs out, is sent back to sign-in, signs in', async () => {
    const page = await suite.newPage()
    await step(page, 'express-protected-page-signed-out', async () => {
      await page.goto('/')
      await signInPage(page)
    })
    await step(page, 'express-sign-up', async () => {
      await submitSignUp(page, 'Ada Lovelace', 'ada@example.com', PASSWORD)
      await accountPage(page, 'Ada Lovelace', 'ada@example.com')
    })
    await step(page, 'express-api-me', async () => {
      const me = await page.request.get('/api/me')
      expect(me.status()).toBe(200)
      expect(await me.json()).toMatchObject({ user: { name: 'Ada Lovelace', email: 'ada@example.com', emailVerified: false } })
    })
    await step(page, 'express-verify-email', async () => {
      // There is no mail server: the verification link is printed to the console, and opening it leads back to the pages.
      const link = printedLink(suite.server.output(), 'ada@example.com', 'Verify your email address')
      expect(new URL(link).searchParams.get('callbackURL')).toBe('/')
      await page.goto(link)
      await accountPage(page, 'Ada Lovelace', 'ada@example.com')
      expect(await (await page.request.get('/api/me')).json()).toMatchObject({ user: { emailVerified: true } })
    })
    await step(page, 'express-sign-out', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click()
      await signInPage(page)
      expect((await page.request.get('/api/me')).status()).toBe(401)
      await page.goto('/')
      await signInPage(page)
    })
    await step(page, 'express-sign-in', async () => {
      expect((await submitSignIn(page, 'ada@example.com', PASSWORD)).status()).toBe(200)
      await accountPage(page, 'Ada Lovelace', 'ada@example.com')
    })
    await step(page, 'express-billing-webhook', async () => {
      const { user } = (await (await page.request.get('/api/me')).json()) as { user: { id: string } }
      // Signed over the raw bytes: it verifies only because the handler is mounted before express.json().
      const delivered = await deliverSubscriptionActive(suite.server.apiUrl, user.id, 'msg_express_subscription_active')
      expect(delivered.status).toBe(200)
      expect(suite.server.output()).toContain('[billing] subscription.active (msg_express_subscription_active)')
      const forged = await fetch(`${suite.server.apiUrl}/api/auth/polar/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
        body: '{"type":"subscription.active","data":{}}',
      })
      expect(forged.status).toBe(403)
      expect(suite.server.output()).not.toContain('msg_forged')
    })
  })
})

// A server of its own: every browser here is 127.0.0.1, and the sign-in above would count against the same budget.
describeRateLimits('express', () => startFrameworkExample('express'), missing)
