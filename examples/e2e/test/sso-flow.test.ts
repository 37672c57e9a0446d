/**
 * Enterprise single sign-on in a real browser (Debian's Chromium), with two
 * example servers: one is the organization's identity provider (the example
 * server is itself an OpenID Provider), the other is the app, started with
 * TRUSTED_ORIGINS naming the IdP's origin, the one list of loopback origins
 * the SSO plugin fetches from (discovery, keys, token endpoint); anything
 * else must be https on a public address. The IdP runs on localhost and the
 * app on 127.0.0.1: browsers keep cookies per host, not per port, so the two
 * servers' session cookies stay apart (and the IdP takes an http redirect URI
 * of a confidential client on a loopback IP only, RFC 8252 §8.3).
 *
 * On the app, an admin signs up, creates the organization and, in its
 * settings, adds the IdP as an OpenID Connect provider: the form shows the
 * redirect URI while the provider ID is typed, the IdP's admin registers a
 * client with it (POST /oauth2/register on the IdP, signed in, as the example
 * allows), and the admin enters the issuer, client id and secret, and the
 * email domain. Asking to verify the domain shows the TXT record to publish;
 * checking it fails with the server's message, because the test domain
 * (acme.test, a reserved name) cannot hold a DNS record here. So the domain
 * stays unverified: email routing finds no provider, and the person signs in
 * by the organization's slug, which the app offers when the email finds none
 * (an unverified provider may create new users, never sign in an existing
 * one: docs/sso.md#domains).
 *
 * Then, in a fresh browser context, a person with an account at the IdP
 * clicks "Sign in with SSO", gives their email, then the slug, signs in at the
 * IdP's login page, allows the app on its consent page, and lands back on the
 * app signed in; the admin's member list shows them as `member`.
 *
 * A second admin adds a SAML provider (certificate from the openssl CLI): the
 * form shows the SP metadata and ACS URLs while the provider ID is typed, the
 * provider's card shows them once added, the metadata URL serves that ACS,
 * and Delete removes the provider. No SAML sign-in here: the example servers
 * are no SAML IdP (packages/sso/test signs in through a samlify IdP).
 * A failing step leaves a screenshot in examples/e2e/screenshots/.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, prerequisites, startExampleServer, step, submitSignUp, type ExampleServer } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] SSO browser test skipped: ${missing}`)

const PASSWORD = 'correct horse battery'

/** A self-signed certificate from the openssl CLI, as an IdP's signing certificate would be pasted. */
function selfSignedCertificate(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-saml-'))
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', '/CN=sso.acme.test',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' })
    return readFileSync(join(dir, 'cert.pem'), 'utf8')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Signs an admin up in the app and creates the organization `slug`, which becomes the active one. */
async function adminOfNewOrganization(page: Page, name: string, email: string, organization: string, slug: string): Promise<void> {
  await submitSignUp(page, name, email, PASSWORD)
  await page.getByRole('heading', { name: `Hello, ${name}` }).waitFor()
  await page.getByRole('link', { name: 'Organizations' }).first().click()
  await page.getByLabel('Name').fill(organization)
  await page.getByLabel('Slug').fill(slug)
  await page.getByRole('button', { name: 'Create organization' }).click()
  await page.getByRole('heading', { name: organization }).waitFor()
  await page.getByText('No identity provider yet.').waitFor()
}

/** Signs a user up over the API and answers their session cookie. */
async function signUpCookie(server: ExampleServer, name: string, email: string): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ name, email, password: PASSWORD }),
  })
  expect(response.status).toBe(200)
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
}

describe.skipIf(missing !== null)(`SSO in the browser${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let idp: ExampleServer
  let app: ExampleServer
  let browser: Browser
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    idp = await startExampleServer({ host: 'localhost' })
    app = await startExampleServer({ env: () => ({ TRUSTED_ORIGINS: idp.url }) })
    browser = await launchBrowser()
  })
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined)
    await browser?.close()
    await app?.stop()
    await idp?.stop()
  })

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ baseURL: app.url })
    contexts.push(context)
    const page = await context.newPage()
    page.setDefaultTimeout(10_000)
    return page
  }

  it('an admin adds the IdP in the organization settings; a person signs in through it by the slug and joins as member', async () => {
    const admin = await newPage()
    await step(admin, 'sso-admin-creates-the-organization', () => adminOfNewOrganization(admin, 'Ada Lovelace', 'ada@engines.test', 'Acme', 'acme'))

    const oidcForm = admin.locator('form', { has: admin.getByRole('heading', { name: 'Add an OpenID Connect provider' }) })
    const redirectURI = await step(admin, 'sso-admin-reads-the-redirect-uri', async () => {
      await oidcForm.getByLabel('Provider ID').fill('acme')
      const shown = await admin.getByTestId('oidc-redirect-uri').textContent()
      expect(shown).toBe(`${app.url}/api/auth/sso/callback/acme`)
      return shown as string
    })

    // At the IdP, its admin registers the app as a client with that redirect URI (the example's way: signed in, RFC 7591).
    const itAdmin = await signUpCookie(idp, 'Acme IT', 'it@acme.test')
    const registered = await fetch(`${idp.url}/api/auth/oauth2/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: idp.url, cookie: itAdmin },
      body: JSON.stringify({ client_name: 'Acme on Gatehouse example', redirect_uris: [redirectURI], token_endpoint_auth_method: 'client_secret_basic' }),
    })
    expect(registered.status).toBe(201)
    const client = (await registered.json()) as { client_id: string; client_secret: string }

    await step(admin, 'sso-admin-adds-the-provider', async () => {
      await oidcForm.getByLabel('Issuer').fill(`${idp.url}/api/auth`)
      await oidcForm.getByLabel('Client ID').fill(client.client_id)
      await oidcForm.getByLabel('Client secret').fill(client.client_secret)
      await oidcForm.getByLabel('Email domain').fill('acme.test')
      await oidcForm.getByRole('button', { name: 'Add OIDC provider' }).click()
      await admin.getByText('Added acme.').waitFor()
      const card = admin.getByRole('listitem', { name: 'Provider acme' })
      await card.getByText(`OpenID Connect · ${idp.url}/api/auth`).waitFor()
      await card.getByText('Domain acme.test: not verified').waitFor()
      await card.getByText(redirectURI).waitFor()
      // The secret is never shown back.
      expect(await admin.getByText(client.client_secret).count()).toBe(0)
    })

    await step(admin, 'sso-admin-tries-to-verify-the-domain', async () => {
      const card = admin.getByRole('listitem', { name: 'Provider acme' })
      await card.getByRole('button', { name: 'Verify acme.test' }).click()
      await card.getByTestId('txt-name').getByText('_gatehouse-challenge.acme.test').waitFor()
      expect(await card.getByTestId('txt-value').textContent()).toMatch(/^\S{16,}$/)
      // No DNS zone holds acme.test: the check fails and says so.
      await card.getByRole('button', { name: 'Check the TXT record' }).click()
      await card.getByRole('alert').filter({ hasText: 'Unable to verify domain ownership for acme.test. Try again later' }).waitFor()
      await card.getByText('Domain acme.test: not verified').waitFor()
    })

    // Grace has an account at the IdP only, and is signed in nowhere in her browser.
    await signUpCookie(idp, 'Grace Hopper', 'grace@acme.test')
    // Grace proves her address at the IdP: an IdP saying email_verified false is believed, and signs nobody in.
    const proof = await idp.mailTo('grace@acme.test', 'verify-email')
    expect((await fetch(proof.url, { redirect: 'manual' })).status).toBeLessThan(400)
    const grace = await newPage()
    await step(grace, 'sso-person-asks-for-sso', async () => {
      await grace.goto('/sign-in')
      await grace.getByRole('link', { name: 'Sign in with SSO' }).click()
      await grace.getByRole('heading', { name: 'Sign in with SSO' }).waitFor()
      await grace.getByLabel('Work email').fill('grace@acme.test')
      await grace.getByRole('button', { name: 'Continue' }).click()
      // The domain is not verified, so the email routes nowhere: the page asks for the organization instead.
      await grace.getByLabel('Organization slug').fill('acme')
      await grace.getByRole('button', { name: 'Continue' }).click()
      await grace.waitForURL((url) => url.href.startsWith(`${idp.url}/login`))
    })
    await step(grace, 'sso-person-signs-in-at-the-idp', async () => {
      await grace.getByRole('heading', { name: 'Sign in' }).waitFor()
      await grace.getByLabel('Email').fill('grace@acme.test')
      await grace.getByLabel('Password').fill(PASSWORD)
      await grace.getByRole('button', { name: 'Sign in' }).click()
      await grace.waitForURL((url) => url.href.startsWith(`${idp.url}/consent`))
      await grace.getByRole('heading', { name: 'Acme on Gatehouse example wants to access your account' }).waitFor()
      await grace.getByRole('button', { name: 'Allow' }).click()
    })
    await step(grace, 'sso-person-lands-signed-in', async () => {
      await grace.waitForURL((url) => url.origin === app.url && url.pathname === '/')
      await grace.getByRole('heading', { name: 'Hello, Grace Hopper' }).waitFor()
      await grace.getByText('Signed in as grace@acme.test.').waitFor()
      // Created just in time by an unverified provider: the address is not taken as verified.
      await grace.getByText('Please verify your email').waitFor()
      await grace.getByRole('link', { name: 'Organizations' }).first().click()
      await grace.getByText('/acme').waitFor()
    })
    await step(admin, 'sso-admin-sees-the-new-member', async () => {
      await admin.reload()
      await admin.getByRole('cell', { name: 'grace@acme.test' }).waitFor()
      expect(await admin.getByLabel('Role of grace@acme.test').inputValue()).toBe('member')
    })
  })

  it('an admin adds a SAML provider: the settings show the SP metadata and ACS URLs the server serves; delete removes it', async () => {
    const admin = await newPage()
    await step(admin, 'saml-admin-creates-the-organization', () =>
      adminOfNewOrganization(admin, 'Charles Babbage', 'charles@engines.test', 'Difference Engines', 'engines'),
    )
    const samlForm = admin.locator('form', { has: admin.getByRole('heading', { name: 'Add a SAML provider' }) })
    const metadataURL = `${app.url}/api/auth/sso/saml2/sp/metadata?providerId=engines-saml`
    const acsURL = `${app.url}/api/auth/sso/saml2/sp/acs/engines-saml`
    await step(admin, 'saml-admin-adds-the-provider', async () => {
      await samlForm.getByLabel('Provider ID').fill('engines-saml')
      // What the IdP's admin needs first, shown while the provider ID is typed.
      expect(await samlForm.getByTestId('saml-metadata-url').textContent()).toBe(metadataURL)
      expect(await samlForm.getByTestId('saml-acs-url').textContent()).toBe(acsURL)
      await samlForm.getByLabel('IdP entry point').fill('https://sso.acme.test/saml/sso')
      await samlForm.getByLabel('IdP certificate').fill(selfSignedCertificate())
      await samlForm.getByLabel('IdP entity ID').fill('https://sso.acme.test/saml/metadata')
      await samlForm.getByLabel('Email domain').fill('engines.test')
      await samlForm.getByRole('button', { name: 'Add SAML provider' }).click()
      await admin.getByText('Added engines-saml.').waitFor()
      const card = admin.getByRole('listitem', { name: 'Provider engines-saml' })
      await card.getByText('SAML · https://sso.acme.test/saml/metadata').waitFor()
      await card.getByText('Domain engines.test: not verified').waitFor()
      await card.getByText(metadataURL).waitFor()
      await card.getByText(acsURL).waitFor()
    })
    // The metadata the IdP's admin would upload names that ACS.
    const metadata = await fetch(metadataURL)
    expect(metadata.status).toBe(200)
    expect(await metadata.text()).toContain(`Location="${acsURL}"`)
    await step(admin, 'saml-admin-deletes-the-provider', async () => {
      await admin.getByRole('button', { name: 'Delete engines-saml' }).click()
      await admin.getByText('No identity provider yet.').waitFor()
      expect(await admin.getByRole('listitem', { name: 'Provider engines-saml' }).count()).toBe(0)
    })
  })
})
