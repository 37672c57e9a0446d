// @vitest-environment jsdom
/**
 * The client half against a real in-process server with the plugin: the
 * route table matches the server; `client.passkey.addPasskey` and
 * `client.signIn.passkey` run the ceremony through @simplewebauthn/browser
 * (over a WebAuthn shim answered by the software authenticator) and the
 * server's verification; `usePasskeys()` follows additions, renames,
 * deletions and sign-out; a cancelled prompt is an error value, not a throw.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { createAuthClient } from '@gatehouse/react'
import { createElement } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { BASE } from '../../core/test/helpers.js'
import { browser } from '../../react/test/browser.js'
import { expectTableMatches } from '../../react/test/routes.js'
import { passkeyClient } from '../src/client.js'
import { passkeyRoutes } from '../src/client/routes.js'
import { resolveOptions } from '../src/options.js'
import { passkeyEndpoints } from '../src/routes/index.js'
import { b64url } from './authenticator.js'
import { authenticatorFor, passkeyAuth } from './fixtures.js'
import { installWebAuthn } from './webauthn-shim.js'

afterEach(cleanup)

function setUp() {
  const auth = passkeyAuth()
  const tab = browser(auth)
  const client = createAuthClient<typeof auth>({ baseURL: BASE, fetch: tab.fetch, plugins: [passkeyClient()] })
  const authenticator = authenticatorFor()
  const webauthn = installWebAuthn(authenticator)
  return { auth, tab, client, authenticator, webauthn }
}

const PASSWORD = 'correct horse battery'

async function signUp(client: ReturnType<typeof setUp>['client']) {
  const { error } = await client.signUp.email({ name: 'Ada', email: 'ada@example.com', password: PASSWORD })
  expect(error).toBeNull()
}

describe('passkey route table and actions', () => {
  it('matches the server', () => {
    expectTableMatches(passkeyRoutes, passkeyEndpoints(resolveOptions()), {})
  })

  it('mounts the actions beside the routes; an action cannot take a name already used', () => {
    const client = createAuthClient({ baseURL: BASE, plugins: [passkeyClient()] })
    expect(typeof client.signIn.email).toBe('function')
    expect(typeof client.signIn.passkey).toBe('function')
    expect(typeof client.passkey.addPasskey).toBe('function')
    expect(typeof client.passkey.listUserPasskeys).toBe('function')
    const clash = { id: 'clash', routes: {}, actions: () => ({ signIn: { email: async () => null } }) }
    expect(() => createAuthClient({ baseURL: BASE, plugins: [clash] })).toThrow('Client name "signIn.email" of plugin "clash" is already taken')
    const twice = { id: 'twice', routes: {}, actions: () => ({ passkey: { addPasskey: async () => null } }) }
    expect(() => createAuthClient({ baseURL: BASE, plugins: [passkeyClient(), twice] })).toThrow('Client name "passkey.addPasskey" of plugin "twice" is already taken')
  })
})

describe('client.passkey.addPasskey and client.signIn.passkey', () => {
  it('registers a passkey, then signs in with it after signing out', async () => {
    const { client, tab, authenticator, webauthn } = setUp()
    await signUp(client)
    // Without the password, the account's only secret: refused after the ceremony, before the challenge is used.
    expect((await client.passkey.addPasskey({ name: 'Laptop' })).error).toMatchObject({ status: 403, code: 'PASSWORD_REQUIRED' })
    authenticator.credentials.length = 0
    const added = await client.passkey.addPasskey({ name: 'Laptop', password: PASSWORD })
    expect(added.error).toBeNull()
    expect(added.data).toMatchObject({ name: 'Laptop', credentialID: b64url(authenticator.credentials[0]!.id), counter: 0 })
    expect(added.data?.createdAt).toBeInstanceOf(Date)
    const sent = tab.requests.find((entry) => entry.path === '/api/auth/passkey/verify-registration')!
    const sends = tab.requests.filter((entry) => entry.path === '/api/auth/passkey/verify-registration')
    expect(JSON.parse(sends.at(-1)!.body)).toMatchObject({ name: 'Laptop', password: PASSWORD, response: { type: 'public-key' } })
    expect(JSON.parse(sent.body)).toMatchObject({ name: 'Laptop', response: { type: 'public-key', response: { transports: ['internal', 'hybrid'] } } })

    await client.signOut()
    expect((await client.getSession()).data).toBeNull()
    const signedIn = await client.signIn.passkey()
    expect(signedIn.error).toBeNull()
    expect(signedIn.data?.user).toMatchObject({ email: 'ada@example.com' })
    expect(webauthn.calls).toEqual([
      { kind: 'create', mediation: undefined },
      { kind: 'create', mediation: undefined },
      { kind: 'get', mediation: undefined },
    ])
    await client.$stores.session.refetch()
    expect(client.$stores.session.getSnapshot().data?.user).toMatchObject({ email: 'ada@example.com' })
  })

  it('autoFill waits in conditional mediation', async () => {
    const { client, webauthn } = setUp()
    await signUp(client)
    expect((await client.passkey.addPasskey({ password: PASSWORD })).error).toBeNull()
    await client.signOut()
    document.body.innerHTML = '<input name="email" autocomplete="username webauthn">'
    const signedIn = await client.signIn.passkey({ autoFill: true })
    expect(signedIn.error).toBeNull()
    expect(webauthn.calls.at(-1)).toEqual({ kind: 'get', mediation: 'conditional' })
  })

  it('a cancelled prompt resolves to PASSKEY_CANCELLED and sends nothing to verify', async () => {
    const { client, tab, webauthn } = setUp()
    await signUp(client)
    webauthn.state.fail = 'NotAllowedError'
    const added = await client.passkey.addPasskey()
    expect(added).toEqual({
      data: null,
      error: { status: 0, code: 'PASSKEY_CANCELLED', message: 'The passkey request was cancelled or timed out' },
    })
    const signedIn = await client.signIn.passkey()
    expect(signedIn.error?.code).toBe('PASSKEY_CANCELLED')
    expect(tab.count('/passkey/verify-registration') + tab.count('/passkey/verify-authentication')).toBe(0)
  })

  it('a server refusal keeps its code: adding without a session is 401', async () => {
    const { client, webauthn } = setUp()
    const added = await client.passkey.addPasskey()
    expect(added.error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
    expect(webauthn.calls).toEqual([])
  })
})

describe('usePasskeys()', () => {
  function Passkeys({ client }: { client: ReturnType<typeof setUp>['client'] }) {
    const { data, isPending } = client.usePasskeys()
    const names = isPending ? 'pending' : (data ?? []).map((passkey) => passkey.name ?? 'unnamed').join(',') || 'none'
    return createElement('p', { 'data-testid': 'passkeys' }, names)
  }

  it('follows additions, renames, deletions and sign-out', async () => {
    const { client, tab } = setUp()
    render(createElement(Passkeys, { client }))
    const shown = () => screen.getByTestId('passkeys').textContent
    await waitFor(() => expect(shown()).toBe('none'))
    await act(() => signUp(client))
    await waitFor(() => expect(tab.count('/passkey/list-user-passkeys')).toBe(1))
    const added = await act(() => client.passkey.addPasskey({ name: 'Laptop', password: PASSWORD }))
    await waitFor(() => expect(shown()).toBe('Laptop'))
    await act(() => client.passkey.updatePasskey({ id: added.data!.id, name: 'Work laptop' }))
    await waitFor(() => expect(shown()).toBe('Work laptop'))
    await act(() => client.passkey.deletePasskey({ id: added.data!.id }))
    await waitFor(() => expect(shown()).toBe('none'))
    await act(() => client.passkey.addPasskey({ password: PASSWORD }))
    await waitFor(() => expect(shown()).toBe('unnamed'))
    await act(() => client.signOut())
    await waitFor(() => expect(shown()).toBe('none'))
  })
})
