/**
 * Usernames in a real browser (docs/username.md): the sign-up form's
 * optional username, checked for availability as it is typed; signing in
 * with the username (in another case: names are compared case-folded) in
 * the sign-in page's "Email or username" field; the "Last used" badge on
 * that form afterwards; and a taken name refused in words.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuite, prerequisites, step } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

const PASSWORD = 'correct horse battery'

interface SessionBody {
  readonly user: { readonly email: string; readonly username: string | null; readonly displayUsername: string | null }
}

describe.skipIf(missing !== null)(`usernames${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuite()
  const { newPage } = suite

  async function session(page: Page): Promise<SessionBody | null> {
    return (await (await page.request.get('/api/auth/get-session')).json()) as SessionBody | null
  }

  /** The sign-up form with a username chosen, up to the availability answer `answer`. */
  async function fillSignUp(page: Page, name: string, email: string, username: string, answer: 'Username is available' | 'Username is taken') {
    await page.goto('/sign-up')
    await page.getByLabel('Name', { exact: true }).fill(name)
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Choose a username' }).click()
    await page.getByLabel('Username').fill(username)
    await page.getByText(answer).waitFor()
    await page.getByLabel('Password').fill(PASSWORD)
  }

  it('signs up with a username, then signs in with it in another case', async () => {
    const page = await newPage()
    const email = 'ada-name@example.com'
    // The switcher asks for the browser's accounts once signed in: without MULTI_SESSION the route is not there.
    const listed = page.waitForResponse((response) => response.url().endsWith('/api/auth/multi-session/list-device-sessions'))
    await step(page, 'ada-signs-up-with-a-username', async () => {
      await fillSignUp(page, 'Ada Lovelace', email, 'Ada_Lovelace', 'Username is available')
      await page.getByRole('button', { name: 'Sign up' }).click()
      await page.getByRole('heading', { name: 'Hello, Ada Lovelace' }).waitFor()
    })
    expect((await session(page))?.user).toMatchObject({ email, username: 'ada_lovelace', displayUsername: 'Ada_Lovelace' })
    expect((await listed).status()).toBe(404)
    expect(await page.getByRole('button', { name: 'Accounts' }).count()).toBe(0)

    await step(page, 'ada-signs-out', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.getByRole('heading', { name: 'Welcome' }).waitFor()
    })
    expect(await session(page)).toBeNull()

    await step(page, 'a-wrong-password-is-refused', async () => {
      await page.goto('/sign-in')
      await page.getByRole('textbox', { name: 'Email or username' }).fill('ADA_LOVELACE')
      await page.getByLabel('Password', { exact: true }).fill('not the password')
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.getByRole('alert').filter({ hasText: 'Invalid username or password' }).waitFor()
    })
    await step(page, 'ada-signs-in-with-the-username-in-capitals', async () => {
      const signedIn = page.waitForResponse((response) => response.url().endsWith('/api/auth/sign-in/username'))
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      expect((await signedIn).status()).toBe(200)
      await page.getByRole('heading', { name: 'Hello, Ada Lovelace' }).waitFor()
    })
    expect((await session(page))?.user).toMatchObject({ email, username: 'ada_lovelace' })

    await step(page, 'the-sign-in-page-marks-the-password-form-last-used', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.getByRole('heading', { name: 'Welcome' }).waitFor()
      await page.goto('/sign-in')
      const passwordForm = page.locator('form', { has: page.getByRole('button', { name: 'Sign in', exact: true }) })
      await passwordForm.getByText('Last used').waitFor()
      expect(await page.getByText('Last used').count()).toBe(1)
    })
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'better-auth.last_used_login_method')?.value).toBe('username')
  })

  it('says a taken username is taken, in any case, and the sign-up refuses it', async () => {
    const first = await newPage()
    await step(first, 'grace-takes-a-name', async () => {
      await fillSignUp(first, 'Grace Hopper', 'grace-name@example.com', 'grace', 'Username is available')
      await first.getByRole('button', { name: 'Sign up' }).click()
      await first.getByRole('heading', { name: 'Hello, Grace Hopper' }).waitFor()
    })
    const page = await newPage()
    await step(page, 'another-person-is-told-the-name-is-taken', async () => {
      await fillSignUp(page, 'Grace Impostor', 'impostor@example.com', 'GRACE', 'Username is taken')
      await page.getByRole('alert').filter({ hasText: 'Username is taken' }).waitFor()
    })
    await step(page, 'the-sign-up-is-refused', async () => {
      await page.getByRole('button', { name: 'Sign up' }).click()
      await page.getByRole('alert').filter({ hasText: 'Username is already taken. Please try another.' }).waitFor()
      expect(new URL(page.url()).pathname).toBe('/sign-up')
    })
    expect(await session(page)).toBeNull()
    await step(page, 'another-name-is-available', async () => {
      await page.getByLabel('Username').fill('grace.impostor')
      await page.getByText('Username is available').waitFor()
      expect(await page.getByText('Username is taken').count()).toBe(0)
    })
  })
})
