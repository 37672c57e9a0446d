/**
 * API keys in a real browser (docs/api-key.md): a user opens the Security
 * page, creates a key (shown once), a script holding it reads the user's
 * session, a reload shows the key by its first characters only, and Revoke
 * ends it: the script is refused.
 */
import { describe, expect, it } from 'vitest'
import { browserSuite, prerequisites, step, submitSignUp } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

describe.skipIf(missing !== null)(`API keys in the browser${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuite()
  const { newPage } = suite

  /** A script's request: the key header, no cookie, no Origin. */
  const asScript = (key: string) => fetch(`${suite.server.url}/api/auth/get-session`, { headers: { 'x-api-key': key } })

  it('creates a key shown once, a script uses it, and revoking it ends it', async () => {
    const page = await newPage()
    await step(page, 'api-key-user-opens-security', async () => {
      await submitSignUp(page, 'Ada Lovelace', 'ada@keys.test', 'correct horse battery')
      await page.getByRole('heading', { name: 'Hello, Ada Lovelace' }).waitFor()
      await page.getByRole('link', { name: 'Security' }).first().click()
      await page.getByRole('heading', { name: 'API keys' }).waitFor()
      await page.getByText('No API keys.').waitFor()
    })

    const section = page.getByRole('region', { name: 'API keys' })
    const key = await step(page, 'api-key-user-creates-a-key', async () => {
      await section.getByLabel('Name').fill('deploy script')
      await section.getByLabel('Expires after').selectOption({ label: '30 days' })
      await section.getByRole('button', { name: 'Create key' }).click()
      const shown = (await section.getByTestId('api-key-value').textContent()) ?? ''
      expect(shown).toMatch(/^[A-Za-z]{64}$/)
      await section.getByRole('table', { name: 'API keys' }).getByRole('cell', { name: 'deploy script', exact: true }).waitFor()
      return shown
    })

    const session = await asScript(key)
    expect(session.status).toBe(200)
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe('ada@keys.test')
    expect(session.headers.get('set-cookie')).toBeNull()

    await step(page, 'api-key-shown-by-its-start-only', async () => {
      await page.reload()
      const table = section.getByRole('table', { name: 'API keys' })
      await table.getByRole('cell', { name: 'deploy script', exact: true }).waitFor()
      await table.getByText(`${key.slice(0, 6)}…`).waitFor()
      expect(await page.content()).not.toContain(key)
      expect(await section.getByTestId('api-key-value').count()).toBe(0)
    })

    await step(page, 'api-key-user-revokes-the-key', async () => {
      await section.getByRole('button', { name: 'Revoke the key deploy script' }).click()
      await page.getByText('No API keys.').waitFor()
    })
    expect((await asScript(key)).status).toBe(401)
  })
})
