/**
 * The admin page in a real browser: ADMIN_EMAILS names the operator, who
 * becomes admin on verifying their address (the link from MAIL_LOG), finds a
 * user by searching the users table, bans them (their open session ends),
 * unbans them, impersonates them and comes back to their own session.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuite, prerequisites, step, submitSignUp } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

const OPERATOR = 'ops@example.com'
const PASSWORD = 'correct horse battery'

describe.skipIf(missing !== null)(`admin page${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuite({ env: { ADMIN_EMAILS: OPERATOR } })
  const { newPage } = suite

  async function signUp(page: Page, name: string, email: string) {
    await submitSignUp(page, name, email, PASSWORD)
    await page.getByRole('heading', { name: `Hello, ${name}` }).waitFor()
  }

  async function sessionEmail(page: Page): Promise<string | null> {
    const session = (await (await page.request.get('/api/auth/get-session')).json()) as { user: { email: string } } | null
    return session?.user.email ?? null
  }

  it('an operator from ADMIN_EMAILS bans, unbans and impersonates a user', async () => {
    const bob = await newPage()
    await step(bob, 'bob-signs-up', () => signUp(bob, 'Bob Builder', 'bob@example.com'))

    const ops = await newPage()
    await step(ops, 'operator-signs-up', async () => {
      await signUp(ops, 'Operator', OPERATOR)
      // Not an admin until the address is proved.
      expect(await ops.getByRole('link', { name: 'Users' }).count()).toBe(0)
    })
    const mail = await suite.server.mailTo(OPERATOR, 'verify-email')
    await step(ops, 'operator-verifies-and-opens-users', async () => {
      await ops.goto(mail.url)
      await ops.getByRole('link', { name: 'Users' }).click()
      await ops.getByRole('heading', { name: 'Users' }).waitFor()
      await ops.getByLabel('Email contains').fill('bob')
      await ops.getByRole('button', { name: 'Search' }).click()
      await ops.getByText('Users 1–1 of 1.').waitFor()
    })

    const row = ops.getByRole('row', { name: /bob@example\.com/ })
    await step(ops, 'operator-bans-bob', async () => {
      await row.getByRole('button', { name: 'Ban' }).click()
      await ops.getByLabel('Reason').fill('spam')
      await ops.getByRole('button', { name: 'Ban bob@example.com' }).click()
      await row.getByText('Banned: spam').waitFor()
    })
    expect(await sessionEmail(bob)).toBeNull()
    const refused = await bob.request.post('/api/auth/sign-in/email', { data: { email: 'bob@example.com', password: PASSWORD } })
    expect(refused.status()).toBe(403)
    expect(await refused.json()).toEqual({ code: 'BANNED_USER', message: 'You have been banned from this application' })

    await step(ops, 'operator-unbans-bob', async () => {
      await row.getByRole('button', { name: 'Unban' }).click()
      await row.getByText('Active').waitFor()
    })

    await step(ops, 'operator-impersonates-bob', async () => {
      await row.getByRole('button', { name: 'Impersonate' }).click()
      await ops.getByRole('heading', { name: 'Hello, Bob Builder' }).waitFor()
      await ops.getByText('You are acting as').waitFor()
    })
    expect(await sessionEmail(ops)).toBe('bob@example.com')

    await step(ops, 'operator-stops-impersonating', async () => {
      await ops.getByRole('button', { name: 'Stop impersonating' }).click()
      await ops.getByRole('heading', { name: 'Users' }).waitFor()
    })
    expect(await sessionEmail(ops)).toBe(OPERATOR)
  })
})
