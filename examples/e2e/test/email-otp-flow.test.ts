/**
 * Codes by mail in a real browser (docs/email-otp.md#signing-in): "Email me
 * a code" on the sign-in page, the six-digit code read from MAIL_LOG (type
 * `email-otp`, `otpType` `sign-in`) and typed back. A new address is signed
 * up, verified, by its first code; signing in again takes a new code; a
 * wrong code is refused in words and costs one of the code's tries only.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuite, prerequisites, step } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

interface SessionBody {
  readonly user: { readonly id: string; readonly email: string; readonly emailVerified: boolean }
}

describe.skipIf(missing !== null)(`email codes${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuite()
  const { newPage } = suite

  async function session(page: Page): Promise<SessionBody | null> {
    return (await (await page.request.get('/api/auth/get-session')).json()) as SessionBody | null
  }

  const codeForm = (page: Page) => page.getByRole('form', { name: 'Sign in with a code by mail' })

  /** Asks for a code on the sign-in page and answers the mailed one as it is written to MAIL_LOG. */
  async function askForCode(page: Page, email: string): Promise<string> {
    await page.goto('/sign-in')
    await codeForm(page).getByLabel('Address for a code').fill(email)
    await codeForm(page).getByRole('button', { name: 'Email me a code' }).click()
    // The sign-in code is mailed before the answer: once the page says so, the log holds it.
    await page.getByText(`We sent a code to ${email}.`).waitFor()
    const mail = await suite.server.mailTo(email, 'email-otp')
    expect(mail).toMatchObject({ otpType: 'sign-in', url: `${suite.server.url}/sign-in` })
    expect(mail.otp).toMatch(/^\d{6}$/)
    return mail.otp ?? ''
  }

  async function enterCode(page: Page, code: string) {
    await codeForm(page).getByLabel('Code').fill(code)
    await codeForm(page).getByRole('button', { name: 'Verify code' }).click()
  }

  it('a new address signs up with a mailed code, and signs in again with a new one', async () => {
    const page = await newPage()
    const email = 'otto@example.com'
    const first = await step(page, 'otto-asks-for-a-code', () => askForCode(page, email))
    await step(page, 'otto-enters-the-code', async () => {
      await enterCode(page, first)
      await page.getByRole('heading', { name: /^Hello, / }).waitFor()
      // The code proved the mailbox: no verification banner.
      expect(await page.getByText('Please verify your email').count()).toBe(0)
    })
    const signedUp = await session(page)
    expect(signedUp?.user).toMatchObject({ email, emailVerified: true })

    await step(page, 'otto-signs-out', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.getByRole('heading', { name: 'Welcome' }).waitFor()
    })
    expect(await session(page)).toBeNull()

    await step(page, 'the-code-option-is-marked-last-used', async () => {
      await page.goto('/sign-in')
      await codeForm(page).getByText('Last used').waitFor()
      expect(await page.getByText('Last used').count()).toBe(1)
    })
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'better-auth.last_used_login_method')?.value).toBe('email-otp')
    const second = await step(page, 'otto-asks-again', () => askForCode(page, email))
    // A second mail, with its own code (the first one was used up).
    expect((await suite.server.mails()).filter((mail) => mail.to === email && mail.type === 'email-otp')).toHaveLength(2)
    await step(page, 'otto-enters-the-new-code', async () => {
      await enterCode(page, second)
      await page.getByRole('heading', { name: /^Hello, / }).waitFor()
    })
    expect((await session(page))?.user).toMatchObject({ id: signedUp?.user.id, email })
  })

  it('a wrong code is refused in words, and the right one still works', async () => {
    const page = await newPage()
    const email = 'wrong-code@example.com'
    const code = await step(page, 'ask-for-a-code', () => askForCode(page, email))
    await step(page, 'a-wrong-code-is-refused', async () => {
      const wrong = code === '000000' ? '111111' : '000000'
      await enterCode(page, wrong)
      await codeForm(page).getByRole('alert').filter({ hasText: 'Invalid OTP' }).waitFor()
      expect(new URL(page.url()).pathname).toBe('/sign-in')
    })
    expect(await session(page)).toBeNull()
    await step(page, 'the-right-code-signs-in', async () => {
      await enterCode(page, code)
      await page.getByRole('heading', { name: /^Hello, / }).waitFor()
    })
    expect((await session(page))?.user).toMatchObject({ email, emailVerified: true })
  })
})
