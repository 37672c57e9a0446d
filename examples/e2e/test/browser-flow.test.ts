/**
 * The newcomer's path through the example app in a real browser (Debian's
 * Chromium): sign up, follow the verification link from MAIL_LOG, see a
 * subscription arrive by signed webhook, sign out
 * and in again, create an organization, invite a second user, accept as
 * that user in another browser context, and see both in the member list.
 * A failing step leaves a screenshot in examples/e2e/screenshots/.
 */
import type { Page } from 'playwright-core'
import { PRODUCT_ID } from '../../../packages/billing/test/fixtures/payloads.js'
import { describe, expect, it } from 'vitest'
import { deliverSubscriptionActive, signedInUserId } from '../src/billing.js'
import { browserSuite, prerequisites, step, submitSignUp } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

const PASSWORD = 'correct horse battery'

describe.skipIf(missing !== null)(`browser end-to-end${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuite()
  const { newPage } = suite

  async function signUp(page: Page, name: string, email: string, next = '') {
    await submitSignUp(page, name, email, PASSWORD, `/sign-up${next}`)
  }

  async function verify(page: Page, email: string) {
    const mail = await suite.server.mailTo(email, 'verify-email')
    await page.goto(mail.url)
    // The link verifies, signs in and redirects into the app: the banner is gone.
    await page.getByRole('heading', { name: /^Hello, / }).waitFor()
    expect(await page.getByText('Please verify your email').count()).toBe(0)
  }

  it('sign up, verify, sign out and in, create an organization, invite, accept, see the members', async () => {
    const ada = await newPage()
    await step(ada, 'ada-signs-up', async () => {
      await signUp(ada, 'Ada Lovelace', 'ada@example.com')
      await ada.getByRole('heading', { name: 'Hello, Ada Lovelace' }).waitFor()
      await ada.getByText('Please verify your email').waitFor()
    })
    await step(ada, 'ada-verifies', () => verify(ada, 'ada@example.com'))
    await step(ada, 'ada-subscribes', async () => {
      await ada.getByText('No active subscription.').waitFor()
      // The billing platform tells the server (not the browser) about the payment: a signed webhook.
      const id = 'msg_e2e_subscription_active'
      const delivered = await deliverSubscriptionActive(suite.server.url, await signedInUserId(ada), id)
      expect(delivered.status).toBe(200)
      expect(await suite.server.webhooks()).toEqual([{ id, type: 'subscription.active' }])
      await ada.getByRole('button', { name: 'Refresh billing' }).click()
      await ada.getByText(`Subscription ${PRODUCT_ID}: active`).waitFor()
    })
    await step(ada, 'ada-signs-out-and-in', async () => {
      await ada.getByRole('button', { name: 'Sign out' }).click()
      await ada.getByRole('heading', { name: 'Welcome' }).waitFor()
      await ada.getByRole('link', { name: 'Sign in' }).first().click()
      await ada.getByLabel('Email').fill('ada@example.com')
      await ada.getByLabel('Password').fill('not the password')
      await ada.getByRole('button', { name: 'Sign in' }).click()
      await ada.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor()
      await ada.getByLabel('Password').fill(PASSWORD)
      await ada.getByRole('button', { name: 'Sign in' }).click()
      await ada.getByRole('heading', { name: 'Hello, Ada Lovelace' }).waitFor()
    })
    await step(ada, 'ada-creates-an-organization', async () => {
      await ada.getByRole('link', { name: 'Organizations' }).first().click()
      await ada.getByLabel('Name').fill('Analytical Engines')
      await ada.getByLabel('Slug').fill('engines')
      await ada.getByRole('button', { name: 'Create organization' }).click()
      await ada.getByRole('heading', { name: 'Analytical Engines' }).waitFor()
    })
    await step(ada, 'ada-invites-grace', async () => {
      const invite = ada.locator('form', { has: ada.getByRole('heading', { name: 'Invite someone' }) })
      await invite.getByLabel('Email').fill('grace@example.com')
      await invite.getByLabel('Role').selectOption('admin')
      await invite.getByRole('button', { name: 'Send invitation' }).click()
      await ada.getByText('Invitation sent to grace@example.com.').waitFor()
      await ada.getByText('grace@example.com as admin').waitFor()
    })

    const invitation = await suite.server.mailTo('grace@example.com', 'invitation')
    expect(invitation.url).toBe(`${suite.server.url}/accept-invitation/${invitation.invitationId}`)

    const grace = await newPage()
    await step(grace, 'grace-opens-the-invitation', async () => {
      await grace.goto(invitation.url)
      await grace.getByRole('heading', { name: 'You have been invited' }).waitFor()
      await grace.getByRole('link', { name: 'create an account' }).click()
      await grace.getByLabel('Name').fill('Grace Hopper')
      await grace.getByLabel('Email').fill('grace@example.com')
      await grace.getByLabel('Password').fill(PASSWORD)
      await grace.getByRole('button', { name: 'Sign up' }).click()
      // Back on the invitation, signed in but not yet verified: the server refuses to show it.
      await grace.getByRole('heading', { name: 'Invitation' }).waitFor()
    })
    await step(grace, 'grace-verifies-and-accepts', async () => {
      await verify(grace, 'grace@example.com')
      await grace.goto(invitation.url)
      await grace.getByText('Join Analytical Engines as admin').waitFor()
      await grace.getByRole('button', { name: 'Accept' }).click()
      await grace.getByRole('heading', { name: 'Analytical Engines' }).waitFor()
    })
    await step(grace, 'grace-sees-the-members', async () => {
      const members = grace.locator('table tbody tr')
      await expect.poll(() => members.count()).toBe(2)
      await grace.getByRole('cell', { name: 'ada@example.com' }).waitFor()
      await grace.getByRole('cell', { name: 'grace@example.com' }).waitFor()
    })
    await step(ada, 'ada-sees-the-new-member', async () => {
      await ada.reload()
      await ada.getByRole('cell', { name: 'grace@example.com' }).waitFor()
      expect(await ada.getByLabel('Role of grace@example.com').inputValue()).toBe('admin')
    })
  })
})
