/**
 * Several accounts in one browser (docs/multi-session.md), on a server
 * started with MULTI_SESSION=1: the header's account switcher lists the
 * accounts signed in here, "Add another account" leads to the sign-in page
 * without signing out (its "Last used" badge on the way in), a second
 * account signs up there, the switcher switches back, and signing one
 * account out leaves the other signed in.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuite, prerequisites, step, submitSignUp } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

const PASSWORD = 'correct horse battery'
const ADA = { name: 'Ada Lovelace', email: 'ada-multi@example.com' }
const GRACE = { name: 'Grace Hopper', email: 'grace-multi@example.com' }

interface SessionBody {
  readonly user: { readonly email: string }
}

describe.skipIf(missing !== null)(`several accounts in one browser${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuite({ env: { MULTI_SESSION: '1' } })
  const { newPage } = suite

  async function signedInAs(page: Page): Promise<string | undefined> {
    return ((await (await page.request.get('/api/auth/get-session')).json()) as SessionBody | null)?.user.email
  }

  async function heldAccounts(page: Page): Promise<string[]> {
    const response = await page.request.get('/api/auth/multi-session/list-device-sessions')
    expect(response.status()).toBe(200)
    return ((await response.json()) as SessionBody[]).map((held) => held.user.email).sort()
  }

  /** Opens the header's switcher and answers its list of accounts, once it shows `count` of them. */
  async function openSwitcher(page: Page, count: number) {
    await page.getByRole('button', { name: 'Accounts' }).click()
    const list = page.getByRole('list', { name: 'Accounts on this browser' })
    await list.getByRole('listitem').nth(count - 1).waitFor()
    expect(await list.getByRole('listitem').count()).toBe(count)
    return list
  }

  it('adds a second account, switches between them, and signs one out while the other stays', async () => {
    const page = await newPage()
    await step(page, 'ada-signs-up', async () => {
      await submitSignUp(page, ADA.name, ADA.email, PASSWORD)
      await page.getByRole('heading', { name: `Hello, ${ADA.name}` }).waitFor()
    })
    await step(page, 'the-switcher-lists-ada-and-adds-another-account', async () => {
      const list = await openSwitcher(page, 1)
      await list.getByRole('listitem').filter({ hasText: `${ADA.email} (current)` }).waitFor()
      await page.getByRole('link', { name: 'Add another account' }).click()
      await page.getByRole('heading', { name: 'Sign in' }).waitFor()
      expect(new URL(page.url()).search).toBe('?add=1')
      await page.getByText(`You are signed in as ${ADA.email}.`).waitFor()
    })
    await step(page, 'the-password-form-is-marked-last-used', async () => {
      // Ada's way in was the sign-up form: the email and password option.
      const passwordForm = page.locator('form', { has: page.getByRole('button', { name: 'Sign in', exact: true }) })
      await passwordForm.getByText('Last used').waitFor()
      expect(await page.getByText('Last used').count()).toBe(1)
    })
    // Still Ada on the sign-in page: adding an account signs nobody out.
    expect(await signedInAs(page)).toBe(ADA.email)

    await step(page, 'grace-signs-up-beside-ada', async () => {
      await page.getByRole('link', { name: 'Create an account' }).click()
      await page.getByRole('heading', { name: 'Create an account' }).waitFor()
      expect(new URL(page.url()).search).toBe('?add=1')
      await page.getByLabel('Name', { exact: true }).fill(GRACE.name)
      await page.getByLabel('Email').fill(GRACE.email)
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign up' }).click()
      await page.getByRole('heading', { name: `Hello, ${GRACE.name}` }).waitFor()
    })
    expect(await signedInAs(page)).toBe(GRACE.email)
    expect(await heldAccounts(page)).toEqual([ADA.email, GRACE.email])

    await step(page, 'switch-back-to-ada', async () => {
      const list = await openSwitcher(page, 2)
      await list.getByRole('listitem').filter({ hasText: `${GRACE.email} (current)` }).waitFor()
      await list.getByRole('button', { name: `Switch to ${ADA.email}`, exact: true }).click()
      await page.getByRole('heading', { name: `Hello, ${ADA.name}` }).waitFor()
      await page.getByRole('navigation', { name: 'Main' }).getByText(ADA.email, { exact: true }).waitFor()
    })
    expect(await signedInAs(page)).toBe(ADA.email)

    await step(page, 'sign-grace-out-of-this-browser', async () => {
      const list = await openSwitcher(page, 2)
      await list.getByRole('listitem').filter({ hasText: `${ADA.email} (current)` }).waitFor()
      await list.getByRole('button', { name: `Sign out ${GRACE.email}`, exact: true }).click()
      await page.getByText(`${GRACE.email} is signed out.`).waitFor()
      await list.getByRole('listitem').filter({ hasText: GRACE.email }).waitFor({ state: 'detached' })
      expect(await list.getByRole('listitem').count()).toBe(1)
    })
    // Ada stays signed in; Grace's session is gone from this browser.
    expect(await signedInAs(page)).toBe(ADA.email)
    expect(await heldAccounts(page)).toEqual([ADA.email])
    await page.getByRole('heading', { name: `Hello, ${ADA.name}` }).waitFor()
  })
})
