/**
 * Every first-party plugin's routes that change credentials, or write the
 * caller's session row, refuse a plugin credential such as an API key with
 * 403 CREDENTIAL_NOT_ALLOWED; the OIDC provider's and SCIM's routes never read
 * one (`cookieOnly`) (docs/sessions.md#credentials-other-than-the-cookie).
 * A test key header stands in for the API key plugin, so the rule is checked
 * apart from any one credential.
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { describe, expect, it } from 'vitest'
import { testKeyPlugin } from '../../../packages/core/test/test-key.js'
import { firstPartyPlugins } from './first-party-plugins.js'

const BASE = 'http://localhost:3000'
const PASSWORD = 'correct horse battery'

async function setup() {
  const auth = createAuth({
    baseURL: BASE,
    secret: 'credential-routes-secret-0123456789-abcdef',
    database: memoryAdapter(),
    logger: { disabled: true },
    rateLimit: { enabled: false },
    emailAndPassword: { enabled: true },
    plugins: [...firstPartyPlugins(), testKeyPlugin()],
  })
  const signUp = await auth.handler(
    new Request(`${BASE}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: BASE },
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', password: PASSWORD }),
    }),
  )
  const { user } = (await signUp.json()) as { user: { id: string } }
  // An admin, so the admin routes get past their role check to the credential rule.
  const context = await auth.$context
  await context.db.update({ model: 'user', where: { field: 'id', value: user.id }, update: { role: 'admin' } })
  return { auth, userId: user.id }
}

/** A request signed in by the test key of `userId` only, from the app's origin. */
async function asKey(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>) {
  const { auth, userId } = await setup()
  return auth.handler(
    new Request(`${BASE}/api/auth${path}`, {
      method,
      headers: { 'x-test-key': userId, origin: BASE, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
  )
}

interface Route {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly body?: Record<string, unknown>
}

const ROUTES: readonly Route[] = [
  { method: 'POST', path: '/two-factor/enable', body: { password: PASSWORD } },
  { method: 'POST', path: '/two-factor/disable', body: { password: PASSWORD } },
  { method: 'POST', path: '/two-factor/get-totp-uri', body: { password: PASSWORD } },
  { method: 'POST', path: '/two-factor/generate-backup-codes', body: { password: PASSWORD } },
  { method: 'POST', path: '/two-factor/enable-otp', body: { password: PASSWORD } },
  { method: 'POST', path: '/two-factor/disable-otp', body: { password: PASSWORD } },
  { method: 'GET', path: '/passkey/generate-register-options' },
  { method: 'POST', path: '/passkey/delete-passkey', body: { id: 'passkey-1' } },
  { method: 'POST', path: '/passkey/update-passkey', body: { id: 'passkey-1', name: 'laptop' } },
  { method: 'POST', path: '/admin/set-user-password', body: { userId: 'someone', newPassword: 'another long password' } },
  { method: 'POST', path: '/admin/impersonate-user', body: { userId: 'someone' } },
  { method: 'POST', path: '/organization/set-active', body: { organizationId: null } },
  { method: 'POST', path: '/organization/set-active-team', body: { teamId: null } },
]

describe('routes that change credentials refuse a plugin credential', () => {
  it.each(ROUTES)('$method $path answers 403 CREDENTIAL_NOT_ALLOWED', async ({ method, path, body }) => {
    const response = await asKey(method, path, body)
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ code: 'CREDENTIAL_NOT_ALLOWED' })
  })

  it.each([
    ['GET', '/scim/list-tokens?organizationId=org-1'],
    ['POST', '/scim/generate-token', { organizationId: 'org-1', providerId: 'okta' }],
    // A signed-in check of a code: with no session cookie and no pending sign-in, there is nobody to check it for.
    ['POST', '/two-factor/verify-totp', { code: '123456' }],
    ['GET', '/oauth2/grants'],
  ] as const)('%s %s does not read the credential at all: no session (401)', async (method, path, body?: Record<string, unknown>) => {
    const response = await asKey(method, path, body)
    expect(response.status).toBe(401)
  })

  it('serves the routes that only read, such as the organization list and passkey list', async () => {
    const { auth, userId } = await setup()
    for (const path of ['/organization/list', '/passkey/list-user-passkeys', '/get-session']) {
      const response = await auth.handler(new Request(`${BASE}/api/auth${path}`, { headers: { 'x-test-key': userId } }))
      expect(response.status, path).toBe(200)
      expect(response.headers.getSetCookie(), path).toEqual([])
    }
  })
})
