/**
 * Passwordless sign-in in a real browser: "Email me a sign-in link" on the
 * sign-in page, the link read from MAIL_LOG (type "magic-link", with `url`
 * and `token`), opened in the browser: a new address is signed up and in,
 * a known one signed in, and a used link lands back on the sign-in page
 * with the error in words.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuite, prerequisites, step } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

describe.skipIf(missing !== null)(`magic-link sign-in${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuite()
  const { newPage } = suite

  async function askForLink(page: Page, email: string) {
    await page.goto('/sign-in')
    await page.getByLabel('Address for a sign-in link').fill(email)
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click()
    await page.getByText('Check your email: we sent you a sign-in link.').waitFor()
  }

  it('a new address signs up and in through the mailed link; the link works once', async () => {
    const page = await newPage()
    const email = 'grace@example.com'
    await step(page, 'grace-asks-for-a-link', () => askForLink(page, email))
    const mail = await suite.server.mailTo(email, 'magic-link')
    expect(mail.token).toMatch(/^[A-Za-z0-9]{32}$/)
    expect(mail.url).toBe(`${suite.server.url}/api/auth/magic-link/verify?token=${mail.token}&callbackURL=%2F&errorCallbackURL=%2Fsign-in`)

    await step(page, 'grace-opens-the-link', async () => {
      await page.goto(mail.url)
      // A link asked for on the sign-in page gives no name: the app greets the address.
      await page.getByRole('heading', { name: `Hello, ${email}` }).waitFor()
      // The link proved the mailbox: no verification banner.
      expect(await page.getByText('Please verify your email').count()).toBe(0)
    })
    const session = (await (await page.request.get('/api/auth/get-session')).json()) as { user: { email: string; emailVerified: boolean } }
    expect(session.user).toMatchObject({ email, emailVerified: true })

    const other = await newPage()
    await step(other, 'the-link-is-used', async () => {
      await other.goto(mail.url)
      await other.getByText('That link is invalid or has expired.').waitFor()
      expect(new URL(other.url()).pathname).toBe('/sign-in')
    })
  })

  it('a known user signs in through the link', async () => {
    const page = await newPage()
    const email = 'ada-link@example.com'
    await step(page, 'ada-signs-up', async () => {
      await page.goto('/sign-up')
      await page.getByLabel('Name').fill('Ada Lovelace')
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill('correct horse battery')
      await page.getByRole('button', { name: 'Sign up' }).click()
      await page.getByRole('heading', { name: 'Hello, Ada Lovelace' }).waitFor()
    })
    const fresh = await newPage()
    await step(fresh, 'ada-asks-for-a-link', () => askForLink(fresh, email))
    const mail = await suite.server.mailTo(email, 'magic-link')
    await step(fresh, 'ada-opens-the-link', async () => {
      await fresh.goto(mail.url)
      await fresh.getByRole('heading', { name: 'Hello, Ada Lovelace' }).waitFor()
    })
  })

  it('a link opened on another device asks "Sign in?" first, and its button signs in (login CSRF)', async () => {
    const laptop = await newPage()
    const email = 'linus-link@example.com'
    await step(laptop, 'linus-asks-on-the-laptop', () => askForLink(laptop, email))
    const mail = await suite.server.mailTo(email, 'magic-link')
    const phone = await newPage()
    await step(phone, 'the-phone-is-asked-before-signing-in', async () => {
      await phone.goto(mail.url)
      await phone.getByRole('heading', { name: 'Sign in?' }).waitFor()
      const before = (await (await phone.request.get('/api/auth/get-session')).json()) as unknown
      expect(before).toBeNull()
    })
    await step(phone, 'linus-continues-on-the-phone', async () => {
      await phone.getByRole('button', { name: `Continue as ${email}` }).click()
      await phone.getByRole('heading', { name: `Hello, ${email}` }).waitFor()
    })
  })
})
