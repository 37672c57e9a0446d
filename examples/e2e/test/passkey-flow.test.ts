/**
 * Passkeys in a real browser: Chromium with a virtual platform
 * authenticator (DevTools protocol WebAuthn domain: CTAP2, internal,
 * resident keys, user verification that succeeds). A new user adds a
 * passkey on the security page, with their password, it shows in the list and on the server,
 * the user signs out and signs back in with the passkey alone; renaming and
 * deleting work from the list. The server runs on http://localhost, a
 * secure context whose host name is a valid relying party id (an IP address
 * is not).
 */
import type { CDPSession, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSuite, prerequisites, step, submitSignUp } from '../src/harness.js'

const missing = prerequisites()
if (missing) console.info(`[e2e] browser tests skipped: ${missing}`)

interface VirtualCredential {
  readonly credentialId: string
  readonly isResidentCredential: boolean
  readonly rpId: string
  readonly signCount: number
  readonly userHandle: string
  readonly privateKey: string
}

async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string; credentials: () => Promise<VirtualCredential[]> }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable', { enableUI: false })
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  })
  return {
    cdp,
    authenticatorId,
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as VirtualCredential[],
  }
}

/** DevTools gives ids in standard base64; WebAuthn's JSON uses base64url. */
const base64url = (base64: string) => Buffer.from(base64, 'base64').toString('base64url')

describe.skipIf(missing !== null)(`passkeys${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const suite = browserSuite({ host: 'localhost' })

  it('adds a passkey on the security page, signs out, and signs back in with it', async () => {
    const page = await suite.newPage()
    const authenticator = await virtualAuthenticator(page)
    const email = 'ada-passkey@example.com'

    await step(page, 'passkey-sign-up', async () => {
      await submitSignUp(page, 'Ada Passkey', email, 'correct horse battery')
      await page.getByRole('heading', { name: 'Hello, Ada Passkey' }).waitFor()
    })

    await step(page, 'passkey-add', async () => {
      await page.goto('/security')
      await page.getByText('No passkeys yet.').waitFor()
      const add = page.getByRole('form', { name: 'Add a passkey' })
      await add.getByLabel('Name (optional)').fill('Virtual key')
      // The account has a password: a fresh session alone adds no passkey (docs/passkeys.md#registering-a-passkey).
      await add.getByLabel('Password').fill('correct horse battery')
      await add.getByRole('button', { name: 'Add a passkey' }).click()
      await page.getByText('Passkey added.').waitFor()
      await page.getByTestId('passkey-name').filter({ hasText: 'Virtual key' }).waitFor()
    })

    const [credential] = await authenticator.credentials()
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost', signCount: 1 })
    const listed = (await (await page.request.get('/api/auth/passkey/list-user-passkeys')).json()) as Array<Record<string, unknown>>
    expect(listed).toEqual([expect.objectContaining({ name: 'Virtual key', credentialID: base64url(credential!.credentialId), deviceType: 'singleDevice' })])
    // The user handle is the random one the server chose, not the account id.
    const session = (await (await page.request.get('/api/auth/get-session')).json()) as { user: { id: string } }
    expect(Buffer.from(credential!.userHandle, 'base64')).toHaveLength(32)
    expect(Buffer.from(credential!.userHandle, 'base64').toString()).not.toContain(session.user.id)

    await step(page, 'passkey-sign-out', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL((url) => url.pathname === '/')
      expect((await (await page.request.get('/api/auth/get-session')).json()) as unknown).toBeNull()
    })

    await step(page, 'passkey-autofill-sign-in', async () => {
      // Conditional UI: the sign-in page starts a waiting request; Chromium's virtual authenticator
      // answers it at once with its only passkey, as a user picking it from the autofill menu would.
      await page.goto('/sign-in')
      await page.getByRole('heading', { name: 'Hello, Ada Passkey' }).waitFor()
    })
    const signedIn = (await (await page.request.get('/api/auth/get-session')).json()) as { user: { email: string } }
    expect(signedIn.user.email).toBe(email)
    expect((await authenticator.credentials())[0]?.signCount).toBe(2)
    const [stored] = (await (await page.request.get('/api/auth/passkey/list-user-passkeys')).json()) as Array<{ counter: number }>
    expect(stored?.counter).toBe(2)

    // Another browser with the same passkey (copied into its authenticator once the sign-in page waits): the button.
    const other = await suite.newPage()
    await step(other, 'passkey-button-sign-in', async () => {
      const asked: string[] = []
      other.on('request', (request) => {
        if (request.url().includes('/api/auth/passkey/')) asked.push(new URL(request.url()).pathname)
      })
      const optionsAsked = other.waitForResponse((response) => response.url().endsWith('/api/auth/passkey/generate-authenticate-options'))
      await other.goto('/sign-in')
      await optionsAsked
      expect(await other.getByLabel('Email').getAttribute('autocomplete')).toBe('username webauthn')
      const copy = await virtualAuthenticator(other)
      const original = (await authenticator.credentials())[0]!
      await copy.cdp.send('WebAuthn.addCredential', { authenticatorId: copy.authenticatorId, credential: original })
      await other.getByRole('button', { name: 'Use a passkey' }).click()
      await other.getByRole('heading', { name: 'Hello, Ada Passkey' }).waitFor()
      // The waiting autofill request, then the button's own: its answer signed in.
      expect(asked).toEqual([
        '/api/auth/passkey/generate-authenticate-options',
        '/api/auth/passkey/generate-authenticate-options',
        '/api/auth/passkey/verify-authentication',
      ])
    })
    const [afterButton] = (await (await page.request.get('/api/auth/passkey/list-user-passkeys')).json()) as Array<{ counter: number }>
    expect(afterButton?.counter).toBe(3)

    await step(page, 'passkey-rename-and-delete', async () => {
      await page.goto('/security')
      await page.getByRole('button', { name: 'Rename' }).click()
      await page.getByLabel('New name').fill('Laptop')
      await page.getByRole('button', { name: 'Save' }).click()
      await page.getByTestId('passkey-name').filter({ hasText: 'Laptop' }).waitFor()
      page.once('dialog', (dialog) => void dialog.accept())
      await page.getByRole('button', { name: 'Delete' }).click()
      await page.getByText('No passkeys yet.').waitFor()
    })
    expect(await (await page.request.get('/api/auth/passkey/list-user-passkeys')).json()).toEqual([])
  })
})
