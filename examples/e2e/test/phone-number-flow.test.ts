/**
 * Phone numbers in a real browser (docs/phone-number.md): "Text me a code"
 * on the sign-in page with the code read from SMS_LOG signs a new number up
 * (a placeholder address, no verification banner) and in; a signed-in user
 * adds a number on the Security page (send, then verify with
 * `updatePhoneNumber`), sees it as verified, and then signs in by it; a wrong
 * code is refused in words.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuite, prerequisites, step, submitSignUp } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

const PASSWORD = 'correct horse battery'

interface SessionBody {
  readonly user: { readonly id: string; readonly email: string; readonly phoneNumber: string | null; readonly phoneNumberVerified: boolean | null }
}

describe.skipIf(missing !== null)(`phone numbers${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuite()
  const { newPage } = suite

  async function session(page: Page): Promise<SessionBody | null> {
    return (await (await page.request.get('/api/auth/get-session')).json()) as SessionBody | null
  }

  const phoneForm = (page: Page) => page.getByRole('form', { name: 'Sign in with a phone number' })

  /** "Text me a code" in `form`, and the code as the server texted it (SMS_LOG). */
  async function textCode(page: Page, form: ReturnType<Page['getByRole']>, number: string): Promise<string> {
    await form.getByLabel('Phone number').fill(number)
    await form.getByRole('button', { name: 'Text me a code' }).click()
    // The text goes out before the answer: once the page says so, the log holds it.
    await page.getByText(`We texted a code to ${number}.`).waitFor()
    const text = await suite.server.smsTo(number, 'verification')
    expect(text.code).toMatch(/^\d{6}$/)
    return text.code
  }

  it('a new number signs up and in with a texted code; a wrong code is refused', async () => {
    const page = await newPage()
    const number = '+14155550123'
    await page.goto('/sign-in')
    const code = await step(page, 'ask-for-a-code', () => textCode(page, phoneForm(page), number))
    await step(page, 'a-wrong-code-is-refused', async () => {
      await phoneForm(page).getByLabel('Code').fill(code === '000000' ? '111111' : '000000')
      await phoneForm(page).getByRole('button', { name: 'Verify code' }).click()
      await phoneForm(page).getByRole('alert').filter({ hasText: 'Invalid OTP' }).waitFor()
    })
    expect(await session(page)).toBeNull()
    await step(page, 'the-right-code-signs-the-number-up', async () => {
      await phoneForm(page).getByLabel('Code').fill(code)
      await phoneForm(page).getByRole('button', { name: 'Verify code' }).click()
      // The account's name is the number until the user gives one.
      await page.getByRole('heading', { name: `Hello, ${number}` }).waitFor()
      // Its address is a placeholder nobody can receive mail at: no banner asking to verify it.
      expect(await page.getByText('Please verify your email').count()).toBe(0)
    })
    expect((await session(page))?.user).toMatchObject({ email: '14155550123@phone.invalid', phoneNumber: number, phoneNumberVerified: true })
  })

  it('a signed-in user adds a number in settings, then signs in with it', async () => {
    const page = await newPage()
    const email = 'grace-phone@example.com'
    const number = '+14155550124'
    await step(page, 'grace-signs-up', async () => {
      await submitSignUp(page, 'Grace Hopper', email, PASSWORD)
      await page.getByRole('heading', { name: 'Hello, Grace Hopper' }).waitFor()
    })
    const add = page.getByRole('form', { name: 'Add a phone number' })
    await step(page, 'grace-opens-security', async () => {
      await page.getByRole('link', { name: 'Security' }).first().click()
      await page.getByText('No phone number yet.').waitFor()
    })
    const code = await step(page, 'grace-asks-for-a-code', () => textCode(page, add, number))
    await step(page, 'grace-adds-the-number', async () => {
      await add.getByLabel('Code').fill(code)
      await add.getByRole('button', { name: 'Add this number' }).click()
      await page.getByText('Phone number added.').waitFor()
      await page.getByTestId('phone-number').filter({ hasText: number }).waitFor()
      await page.getByText(`Your number: ${number} (verified)`).waitFor()
    })
    const withNumber = await session(page)
    expect(withNumber?.user).toMatchObject({ email, phoneNumber: number, phoneNumberVerified: true })

    await step(page, 'grace-signs-out', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.getByRole('heading', { name: 'Welcome' }).waitFor()
    })
    await page.goto('/sign-in')
    const again = await step(page, 'grace-asks-for-a-sign-in-code', () => textCode(page, phoneForm(page), number))
    await step(page, 'grace-signs-in-by-her-number', async () => {
      await phoneForm(page).getByLabel('Code').fill(again)
      await phoneForm(page).getByRole('button', { name: 'Verify code' }).click()
      await page.getByRole('heading', { name: 'Hello, Grace Hopper' }).waitFor()
    })
    expect((await session(page))?.user).toMatchObject({ id: withNumber?.user.id, email, phoneNumber: number })

    await step(page, 'the-phone-option-is-marked-last-used', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.getByRole('heading', { name: 'Welcome' }).waitFor()
      await page.goto('/sign-in')
      await phoneForm(page).getByText('Last used').waitFor()
      expect(await page.getByText('Last used').count()).toBe(1)
    })
  })
})
