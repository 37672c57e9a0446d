/**
 * GET /api/app-config over real HTTP: the social providers the environment
 * enabled, as the React app's "Continue with …" buttons need them, and
 * nothing secret. A sign-in with one of them is sent to the provider.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { RunningServer } from '../src/server.js'
import { startExample } from './harness.js'

describe('GET /api/app-config', () => {
  let dir = ''
  let server: RunningServer | undefined

  afterEach(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  async function start(env: Record<string, string>): Promise<RunningServer> {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-app-config-'))
    server = await startExample(dir, { RATE_LIMIT: '0', ...env })
    return server
  }

  it('lists no provider when none is configured', async () => {
    const running = await start({})
    const response = await fetch(`${running.url}/api/app-config`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await response.json()).toEqual({ socialProviders: [] })
  })

  it('lists the configured providers by id and name, and no credential', async () => {
    const running = await start({
      GITHUB_CLIENT_ID: 'gh-id',
      GITHUB_CLIENT_SECRET: 'gh-secret-value',
      GOOGLE_CLIENT_ID: 'google-id',
      GOOGLE_CLIENT_SECRET: 'google-secret-value',
      SOCIAL_OIDC_ISSUER: 'https://id.example.com',
      SOCIAL_OIDC_CLIENT_ID: 'oidc-id',
      SOCIAL_OIDC_CLIENT_SECRET: 'oidc-secret-value',
      SOCIAL_OIDC_NAME: 'Acme ID',
    })
    const response = await fetch(`${running.url}/api/app-config?v=1`)
    const text = await response.text()
    expect(JSON.parse(text)).toEqual({
      socialProviders: [
        { id: 'github', name: 'GitHub' },
        { id: 'google', name: 'Google' },
        { id: 'oidc', name: 'Acme ID' },
      ],
    })
    expect(text).not.toMatch(/secret-value|gh-id/)
    expect((await fetch(`${running.url}/api/app-config`, { method: 'POST' })).status).toBe(405)

    // The button's call: sign-in/social answers GitHub's authorization URL with this server's callback.
    const signIn = await fetch(`${running.url}/api/auth/sign-in/social`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: running.url },
      body: JSON.stringify({ provider: 'github', callbackURL: '/' }),
    })
    expect(signIn.status).toBe(200)
    const { url, redirect } = (await signIn.json()) as { url: string; redirect: boolean }
    expect(redirect).toBe(true)
    const target = new URL(url)
    expect(target.origin + target.pathname).toBe('https://github.com/login/oauth/authorize')
    expect(target.searchParams.get('client_id')).toBe('gh-id')
    expect(target.searchParams.get('redirect_uri')).toBe(`${running.url}/api/auth/callback/github`)
  })
})
