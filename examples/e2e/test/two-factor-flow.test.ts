/**
 * Two-factor in a real browser: a user turns TOTP on from the security page
 * (the secret read from the page, codes computed here as an authenticator
 * app would: RFC 6238, HMAC-SHA1, 6 digits, 30 s), signs out, signs in with
 * the password, lands on /two-factor, and a wrong code is refused before
 * the right one signs in. No session exists between the two steps. Right
 * after, the security page mints new backup codes with the password alone
 * (the session just passed the second factor).
 */
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { browserSuite, prerequisites, step, submitSignUp } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

const PASSWORD = 'correct horse battery'

/** The 6-digit code of time step `counter` for a base32 secret. */
function totp(secret: string, counter: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const char of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0')
  const key = Buffer.from(bits.match(/.{8}/g)?.map((byte) => Number.parseInt(byte, 2)) ?? [])
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac('sha1', key).update(message).digest()
  const start = (mac[mac.length - 1] as number) & 0x0f
  return String((mac.readUInt32BE(start) & 0x7fffffff) % 1_000_000).padStart(6, '0')
}

const currentStep = () => Math.floor(Date.now() / 30_000)

describe.skipIf(missing !== null)(`two-factor sign-in${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuite()

  it('turns TOTP on from the security page, then signs in with a code; a wrong code is refused', async () => {
    const page = await suite.newPage()
    const email = 'ada-totp@example.com'
    await step(page, 'ada-signs-up', async () => {
      await submitSignUp(page, 'Ada Lovelace', email, PASSWORD)
      await page.getByRole('heading', { name: 'Hello, Ada Lovelace' }).waitFor()
    })

    const confirmedStep = currentStep()
    const secret = await step(page, 'ada-turns-on-totp', async () => {
      await page.getByRole('link', { name: 'Security' }).first().click()
      await page.getByRole('heading', { name: 'Security' }).waitFor()
      expect(await page.getByTestId('two-factor-status').textContent()).toBe('off')
      const turnOn = page.getByRole('form', { name: 'Turn on two-factor' })
      await turnOn.getByLabel('Password').fill(PASSWORD)
      await turnOn.getByRole('button', { name: 'Turn on two-factor' }).click()
      await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor()
      const shown = (await page.getByTestId('totp-secret').textContent()) ?? ''
      expect(shown).toMatch(/^[A-Z2-7]{32}$/)
      expect(await page.getByTestId('backup-codes').locator('li').count()).toBe(10)
      await page.getByLabel('Code from the app').fill(totp(shown, confirmedStep))
      await page.getByRole('button', { name: 'Confirm', exact: true }).click()
      await page.getByText('Two-factor is on.').waitFor()
      await page.getByTestId('two-factor-status').filter({ hasText: 'on' }).waitFor()
      return shown
    })

    await step(page, 'ada-signs-out-and-in-with-the-password', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.getByRole('heading', { name: 'Welcome' }).waitFor()
      await page.goto('/sign-in')
      await page.getByLabel('Email', { exact: true }).fill(email)
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor()
      expect(new URL(page.url()).pathname).toBe('/two-factor')
    })
    // Between the two steps: no session, and no session cookie in the browser.
    expect(await (await page.request.get('/api/auth/get-session')).json()).toBeNull()
    const cookies = await page.context().cookies()
    expect(cookies.some((cookie) => cookie.name.endsWith('session_token'))).toBe(false)
    expect(cookies.some((cookie) => cookie.name.endsWith('two_factor'))).toBe(true)

    await step(page, 'a-wrong-code-is-refused', async () => {
      const right = totp(secret, confirmedStep + 1)
      await page.getByLabel('Code from your authenticator app').fill(right === '000000' ? '111111' : '000000')
      await page.getByRole('button', { name: 'Verify', exact: true }).click()
      await page.getByRole('alert').filter({ hasText: 'Invalid code' }).waitFor()
      expect(new URL(page.url()).pathname).toBe('/two-factor')
    })

    await step(page, 'the-right-code-signs-in', async () => {
      // The confirming code's step is used up: the next step's code, inside the window of one step.
      await page.getByLabel('Code from your authenticator app').fill(totp(secret, confirmedStep + 1))
      await page.getByRole('button', { name: 'Verify', exact: true }).click()
      await page.getByRole('heading', { name: 'Hello, Ada Lovelace' }).waitFor()
    })
    const session = (await (await page.request.get('/api/auth/get-session')).json()) as { user: { email: string; twoFactorEnabled: boolean } }
    expect(session.user).toMatchObject({ email, twoFactorEnabled: true })

    await step(page, 'new-backup-codes-with-the-password-right-after-the-code', async () => {
      // The session just passed the second factor: for 10 minutes the password alone is enough (the code field stays empty).
      await page.getByRole('link', { name: 'Security' }).first().click()
      const form = page.getByRole('form', { name: 'New backup codes' })
      await form.getByLabel('Password').fill(PASSWORD)
      await form.getByRole('button', { name: 'Generate new backup codes' }).click()
      await page.getByText('New backup codes: the old ones no longer work.').waitFor()
      expect(await page.getByTestId('backup-codes').locator('li').count()).toBe(10)
    })
  })
})
