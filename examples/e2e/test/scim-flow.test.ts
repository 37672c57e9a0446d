/**
 * Directory sync in a real browser: an organization's owner opens the
 * organization settings, reads the SCIM base URL, generates a token (shown
 * once), and a directory holding it adds a person and deactivates them; the
 * member list then marks them suspended, and the token list shows the token
 * by its first characters, with its last use. Generating again for the same
 * provider id warns first and replaces the token; Revoke ends it.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuite, prerequisites, step, submitSignUp } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'

describe.skipIf(missing !== null)(`SCIM settings in the browser${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuite()
  const { newPage } = suite

  /** A directory's request: the bearer token and SCIM JSON, no cookie. */
  async function scim(baseURL: string, token: string, method: string, path: string, json?: unknown) {
    return fetch(`${baseURL}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/scim+json' }) },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    })
  }

  async function readToken(page: Page): Promise<string> {
    const token = (await page.getByTestId('scim-token').textContent()) ?? ''
    expect(token).toMatch(/^gatehouse_scim_[A-Za-z0-9]{43}$/)
    return token
  }

  it('an owner generates a token, a directory adds and suspends a member, the owner replaces and revokes the token', async () => {
    const owner = await newPage()
    await step(owner, 'scim-owner-creates-the-organization', async () => {
      await submitSignUp(owner, 'Ada Lovelace', 'ada@engines.test', 'correct horse battery')
      await owner.getByRole('heading', { name: 'Hello, Ada Lovelace' }).waitFor()
      await owner.getByRole('link', { name: 'Organizations' }).first().click()
      await owner.getByLabel('Name').fill('Engines')
      await owner.getByLabel('Slug').fill('engines')
      await owner.getByRole('button', { name: 'Create organization' }).click()
      await owner.getByRole('heading', { name: 'Directory sync (SCIM)' }).waitFor()
      await owner.getByText('No token yet: no directory can reach this organization.').waitFor()
    })

    const section = owner.getByRole('region', { name: 'Directory sync (SCIM)' })
    const baseURL = await step(owner, 'scim-owner-reads-the-base-url', async () => {
      const shown = (await section.getByTestId('scim-base-url').textContent()) ?? ''
      expect(shown).toBe(`${suite.server.url}/api/auth/scim/v2`)
      return shown
    })

    const first = await step(owner, 'scim-owner-generates-a-token', async () => {
      await section.getByLabel('Provider ID').fill('okta')
      await section.getByRole('button', { name: 'Generate token' }).click()
      const token = await readToken(owner)
      await section.getByRole('table', { name: 'SCIM tokens' }).getByRole('cell', { name: 'okta', exact: true }).waitFor()
      return token
    })

    // The directory (Okta) adds Grace, then deactivates her.
    const created = await scim(baseURL, first, 'POST', '/Users', { schemas: [USER], userName: 'grace@engines.test', name: { givenName: 'Grace', familyName: 'Hopper' } })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: string }
    const deactivated = await scim(baseURL, first, 'PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] })
    expect(deactivated.status).toBe(200)

    await step(owner, 'scim-owner-sees-the-suspended-member', async () => {
      await owner.reload()
      const row = owner.getByRole('row', { name: /grace@engines\.test/ })
      await row.getByText('(suspended)').waitFor()
      // The token list shows its use, and never the token.
      const tokens = section.getByRole('table', { name: 'SCIM tokens' })
      await tokens.getByRole('cell', { name: 'okta', exact: true }).waitFor()
      expect(await tokens.getByRole('cell', { name: 'never' }).count()).toBe(0)
      expect(await owner.getByText(first).count()).toBe(0)
    })

    const second = await step(owner, 'scim-owner-replaces-the-token', async () => {
      await section.getByLabel('Provider ID').fill('okta')
      await section.getByTestId('scim-replace-warning').waitFor()
      await section.getByRole('button', { name: 'Replace the token of okta' }).click()
      const token = await readToken(owner)
      expect(token).not.toBe(first)
      return token
    })
    expect((await scim(baseURL, first, 'GET', '/Users')).status).toBe(401)
    expect((await scim(baseURL, second, 'GET', '/Users')).status).toBe(200)

    await step(owner, 'scim-owner-revokes-the-token', async () => {
      await section.getByRole('button', { name: 'Revoke the token of okta' }).click()
      await section.getByText('No token yet: no directory can reach this organization.').waitFor()
      expect(await section.getByTestId('scim-token').count()).toBe(0)
    })
    expect((await scim(baseURL, second, 'GET', '/Users')).status).toBe(401)
  })
})
