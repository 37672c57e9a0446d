/**
 * Single sign-on on the example server (README "Single sign-on"): the SSO
 * plugin fetches an organization's IdP only over https from public
 * addresses, or from the exact origins of TRUSTED_ORIGINS. Another example
 * server, an OpenID Provider on a loopback port, is registered as an
 * organization's IdP by the server that names it there, and refused by one
 * that does not. With the domain unverified, a sign-in starts by the
 * organization's slug, not by email (docs/sso.md#domains).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from '../src/server.js'
import { cookiesOf, sameOriginFetch, startExample } from './harness.js'

const PASSWORD = 'correct horse battery'

describe('SSO on the example server', () => {
  let dir = ''
  let idp: RunningServer
  let app: RunningServer
  let strict: RunningServer

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-example-sso-'))
    idp = await startExample(join(dir, 'idp'), { RATE_LIMIT: '0', DATABASE_PATH: join(dir, 'idp.db') })
    app = await startExample(join(dir, 'app'), { RATE_LIMIT: '0', DATABASE_PATH: join(dir, 'app.db'), TRUSTED_ORIGINS: idp.url })
    strict = await startExample(join(dir, 'strict'), { RATE_LIMIT: '0', DATABASE_PATH: join(dir, 'strict.db') })
  })
  afterAll(async () => {
    await Promise.all([idp?.close(), app?.close(), strict?.close()])
    await rm(dir, { recursive: true, force: true })
  })

  /** Signs an admin up on `server`, creates the organization `acme`, and registers the IdP as its provider. */
  async function registerIdp(server: RunningServer) {
    const signUp = await sameOriginFetch(server.url, '/api/auth/sign-up/email', { json: { name: 'Ada', email: 'ada@engines.test', password: PASSWORD } })
    expect(signUp.status).toBe(200)
    const cookie = cookiesOf(signUp)
    const created = await sameOriginFetch(server.url, '/api/auth/organization/create', { json: { name: 'Acme', slug: 'acme' }, cookie })
    expect(created.status).toBe(200)
    const { id: organizationId } = (await created.json()) as { id: string }
    const registered = await sameOriginFetch(server.url, '/api/auth/sso/register', {
      json: {
        providerId: 'acme',
        issuer: `${idp.url}/api/auth`,
        domain: 'acme.test',
        organizationId,
        oidcConfig: { clientId: 'acme-client', clientSecret: 'acme-client-secret' },
      },
      cookie,
    })
    return { registered, body: (await registered.json()) as Record<string, unknown>, cookie }
  }

  it('registers an IdP on an origin of TRUSTED_ORIGINS; signs in by slug while the domain is unverified', async () => {
    const { registered, body } = await registerIdp(app)
    expect(registered.status).toBe(200)
    expect(body).toMatchObject({
      providerId: 'acme',
      type: 'oidc',
      issuer: `${idp.url}/api/auth`,
      domain: 'acme.test',
      domainVerified: false,
      redirectURI: `${app.url}/api/auth/sso/callback/acme`,
      domainVerificationToken: expect.any(String),
    })
    expect(JSON.stringify(body)).not.toContain('acme-client-secret')

    const bySlug = await sameOriginFetch(app.url, '/api/auth/sign-in/sso', { json: { organizationSlug: 'acme', callbackURL: '/' } })
    expect(bySlug.status).toBe(200)
    const start = (await bySlug.json()) as { url: string; redirect: boolean }
    expect(start.redirect).toBe(true)
    const authorize = new URL(start.url)
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${idp.url}/api/auth/oauth2/authorize`)
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${app.url}/api/auth/sso/callback/acme`)

    // An unverified domain routes nobody by email.
    const byEmail = await sameOriginFetch(app.url, '/api/auth/sign-in/sso', { json: { email: 'grace@acme.test', callbackURL: '/' } })
    expect(byEmail.status).toBe(404)
    expect(await byEmail.json()).toMatchObject({ code: 'PROVIDER_NOT_FOUND' })
  })

  it('refuses the same loopback IdP on a server whose TRUSTED_ORIGINS does not name it', async () => {
    const { registered, body, cookie } = await registerIdp(strict)
    expect(registered.status).toBe(400)
    expect(body).toMatchObject({ code: 'UNSAFE_URL' })
    // Nothing stored: the organization has no provider.
    const listed = await sameOriginFetch(strict.url, '/api/auth/sso/providers', { cookie })
    expect(await listed.json()).toEqual({ providers: [] })
  })
})
