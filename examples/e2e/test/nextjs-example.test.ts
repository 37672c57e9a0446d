/**
 * examples/nextjs in Chromium on `next start` over the `.next` that
 * `pnpm build` made: the account flow (the protected /dashboard, sign-up,
 * client sign-out, sign-in) through the route handler and the server
 * component's session check; the printed verification link; organizations
 * created and switched with the client, read back by the server component;
 * sign-out through the server action, its cookie cleared through
 * `cookies()`; and four wrong passwords from one browser, the fourth 429
 * (next start writes the connection's address into X-Forwarded-For).
 */
import { describe, expect, it } from 'vitest'
import { accountFlow, accountPage, describeRateLimits, printedLink, signInPage } from '../src/framework-pages.js'
import { browserSuiteOn, frameworkPrerequisites, startFrameworkExample, step } from '../src/harness.js'

const missing = frameworkPrerequisites('nextjs')
if (missing) console.info(`[e2e] nextjs example skipped: ${missing}`)

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' }

describe.skipIf(missing !== null)(`examples/nextjs${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuiteOn(() => startFrameworkExample('nextjs'))

  it('signs up, opens /dashboard, switches organizations, signs out with the client and with a server action', async () => {
    const page = await suite.newPage()
    await accountFlow(page, 'nextjs', ADA)

    await step(page, 'nextjs-verify-email', async () => {
      // There is no mail server: the verification link is printed to the console, and opening it leads back to the dashboard.
      const link = printedLink(suite.server.output(), ADA.email, 'Verify your email address')
      expect(new URL(link).searchParams.get('callbackURL')).toBe('/dashboard')
      await page.goto(link)
      await accountPage(page, ADA.name, ADA.email, '/dashboard')
      await page.getByText('Email address verified.').waitFor()
    })

    await step(page, 'nextjs-organizations', async () => {
      await page.getByText('No active organization.').waitFor()
      for (const [name, slug] of [['Acme', 'acme'], ['Globex', 'globex']] as const) {
        await page.getByLabel('Organization name').fill(name)
        await page.getByLabel('Slug').fill(slug)
        await page.getByRole('button', { name: 'Create organization' }).click()
        // Creating one makes it the active one; the server component reads that from the session.
        await page.getByText(`Active organization: ${name}`).waitFor()
      }
      await page.getByRole('button', { name: 'Switch to Acme' }).click()
      await page.getByText('Active organization: Acme').waitFor()
      await page.getByRole('button', { name: 'Switch to Globex' }).waitFor()
      // Stored on the session, not only shown: a fresh render reads it again.
      await page.reload()
      await page.getByText('Active organization: Acme').waitFor()
      const session = (await (await page.request.get('/api/auth/get-session')).json()) as { session: { activeOrganizationId: string | null } }
      const organizations = (await (await page.request.get('/api/auth/organization/list')).json()) as Array<{ id: string; name: string }>
      expect(session.session.activeOrganizationId).toBe(organizations.find((organization) => organization.name === 'Acme')?.id)
    })

    await step(page, 'nextjs-server-action-sign-out', async () => {
      const before = (await page.context().cookies()).map((cookie) => cookie.name)
      expect(before.some((name) => name.endsWith('session_token'))).toBe(true)
      await page.getByRole('button', { name: 'Sign out with a server action' }).click()
      await signInPage(page)
      // The action's Set-Cookie went out through cookies(): the browser holds no session cookie any more.
      const after = (await page.context().cookies()).map((cookie) => cookie.name)
      expect(after.some((name) => name.endsWith('session_token'))).toBe(false)
      expect(await (await page.request.get('/api/auth/get-session')).json()).toBeNull()
      await page.goto('/dashboard')
      await signInPage(page)
    })
  })
})

// A server of its own: every browser here is 127.0.0.1, and the sign-in above would count against the same budget.
describeRateLimits('nextjs', () => startFrameworkExample('nextjs'), missing, { socketAddress: false })
