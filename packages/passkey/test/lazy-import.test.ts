/**
 * Start-up cost (docs/passkeys.md#start-up): making an auth with the plugin
 * does not load @simplewebauthn/server; the first passkey request does,
 * once. The module factory below passes the real module through and only
 * records when it is first asked for (vitest calls it on first import).
 */
import { describe, expect, it, vi } from 'vitest'

const loads = vi.hoisted(() => ({ count: 0 }))

vi.mock('@simplewebauthn/server', async (importOriginal) => {
  loads.count += 1
  return importOriginal()
})

describe('lazy @simplewebauthn/server', () => {
  it('is loaded by the first passkey request, not by the plugin or the auth', async () => {
    const { passkeyAuth, call } = await import('./fixtures.js')
    const auth = passkeyAuth()
    await auth.$context
    await call(auth, '/ok', '')
    expect(loads.count).toBe(0)
    expect((await call(auth, '/passkey/generate-authenticate-options', '')).status).toBe(200)
    expect((await call(auth, '/passkey/generate-authenticate-options', '')).status).toBe(200)
    expect(loads.count).toBe(1)
  })
})
