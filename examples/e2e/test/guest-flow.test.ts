/**
 * A guest in a real browser (docs/anonymous.md): "Continue as guest" on the
 * sign-in page gives a session and the guest banner; the guest makes an
 * organization (the app's API, as its pages do); signing up then keeps it:
 * the new account holds the organization and is no guest.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuite, prerequisites, step } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

interface SessionBody {
  readonly user: { readonly id: string; readonly email: string; readonly isAnonymous: boolean | null }
}

describe.skipIf(missing !== null)(`guests${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuite()
  const { newPage } = suite

  async function session(page: Page): Promise<SessionBody | null> {
    return (await (await page.request.get('/api/auth/get-session')).json()) as SessionBody | null
  }

  it('a guest makes an organization, signs up, and keeps it', async () => {
    const page = await newPage()
    await step(page, 'continue-as-guest', async () => {
      await page.goto('/sign-in')
      await page.getByRole('button', { name: 'Continue as guest' }).click()
      await page.getByText('You are browsing as a guest.').waitFor()
    })
    const guest = await session(page)
    expect(guest?.user.isAnonymous).toBe(true)
    expect(guest?.user.email).toMatch(/@anonymous\.invalid$/)

    const created = await page.request.post('/api/auth/organization/create', {
      data: { name: 'Guest workshop', slug: 'guest-workshop' },
      headers: { origin: suite.server.url },
    })
    expect(created.status()).toBe(200)
    const organization = (await created.json()) as { id: string }

    await step(page, 'guest-signs-up', async () => {
      await page.getByRole('link', { name: 'Create an account' }).first().click()
      await page.getByLabel('Name', { exact: true }).fill('Gwen')
      await page.getByLabel('Email').fill('gwen@example.com')
      await page.getByLabel('Password').fill('correct horse battery')
      await page.getByRole('button', { name: 'Sign up' }).click()
      await page.getByRole('heading', { name: 'Hello, Gwen' }).waitFor()
    })
    const member = await session(page)
    expect(member?.user).toMatchObject({ email: 'gwen@example.com', isAnonymous: false })
    expect(await page.getByText('You are browsing as a guest.').count()).toBe(0)
    const organizations = (await (await page.request.get('/api/auth/organization/list')).json()) as { id: string }[]
    expect(organizations.map((entry) => entry.id)).toContain(organization.id)
  })
})
