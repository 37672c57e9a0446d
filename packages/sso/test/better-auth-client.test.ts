/**
 * The leading library's own client drives this plugin unchanged (the wire
 * promise of docs/sso.md#client): `createAuthClient` from `better-auth/client`
 * with `ssoClient({ domainVerification: { enabled: true } })` from
 * `@better-auth/sso/client` (domain verification is always on here) and better-auth's
 * `organizationClient()` to make the organization, all at 1.7.5, the
 * version whose routes this plugin mirrors. Its fetch is pointed at
 * `auth.handler` through better-fetch's `customFetchImpl`, behind a cookie jar
 * that sends `Origin` on writes as a browser does. The IdP is node-oidc-provider
 * (panva's, written apart from this code) on a 127.0.0.1 port named in
 * `trustedOrigins`.
 *
 * Each call is the one an application written against better-auth makes:
 * register an OIDC provider, list and get it, request and verify the domain,
 * start a sign-in by organization slug, by email and by providerId (the
 * answer `{ url, redirect: true }` is what the client's redirect plugin
 * follows in a browser), finish it at the IdP and the callback, read the
 * session, delete the provider. The client checks nothing at run time, so the
 * shapes its types promise are asserted here field by field.
 */
import { organizationClient } from 'better-auth/client/plugins'
import { createAuthClient } from 'better-auth/client'
import { ssoClient } from '@better-auth/sso/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, BASE, callbackURL, CLIENT, startNodeOidcProvider } from './oidc-fixtures.js'
import { Browser, PASSWORD, rows, ssoAuth, type SsoAuth } from './oidc-setup.js'

let op: Awaited<ReturnType<typeof startNodeOidcProvider>>

beforeAll(async () => {
  op = await startNodeOidcProvider(['acme'])
  op.accounts.set('ada', { email: 'ada@acme.test', email_verified: true, name: 'Ada Lovelace' })
})
afterAll(async () => {
  await op.close()
})

/**
 * better-auth's client on `auth`, its requests answered in process by `browser`
 * (whose jar keeps the cookies, as a browser's would for the app's origin).
 */
function betterAuthClient(browser: Browser) {
  const customFetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text()
    return browser.request(request.url, {
      method: request.method,
      ...(text === '' ? {} : { json: JSON.parse(text) as unknown }),
      // A browser sends Origin on a POST from the app's pages; core's CSRF check reads it.
      headers: request.method === 'GET' ? {} : { origin: BASE },
    })
  }
  // Domain verification is always on here; better-auth's client types its two routes only when told so.
  return createAuthClient({
    baseURL: AUTH,
    plugins: [ssoClient({ domainVerification: { enabled: true } }), organizationClient()],
    fetchOptions: { customFetchImpl },
  })
}

async function adminWithOrganization(auth: SsoAuth) {
  const browser = new Browser(auth)
  const client = betterAuthClient(browser)
  const signUp = await client.signUp.email({ email: 'admin@acme-admin.test', password: PASSWORD, name: 'Admin' })
  expect(signUp.error).toBeNull()
  const created = await client.organization.create({ name: 'Acme', slug: 'acme' })
  expect(created.error).toBeNull()
  return { browser, client, organizationId: created.data?.id as string }
}

describe("better-auth's ssoClient() against this plugin", () => {
  it('registers, lists, gets, verifies the domain, signs in by slug, email and providerId, and deletes', async () => {
    const auth = ssoAuth([op.issuer])
    const { client, organizationId } = await adminWithOrganization(auth)

    const registered = await client.sso.register({
      providerId: 'acme',
      issuer: op.issuer,
      domain: 'acme.test',
      organizationId,
      oidcConfig: { clientId: CLIENT.id, clientSecret: CLIENT.secret, scopes: ['openid', 'email', 'profile'] },
    })
    expect(registered.error).toBeNull()
    // What better-auth's register answer type promises (with domain verification on): the provider, redirectURI, the token.
    expect(registered.data).toMatchObject({
      providerId: 'acme',
      issuer: op.issuer,
      domain: 'acme.test',
      organizationId,
      redirectURI: callbackURL('acme'),
      domainVerified: false,
      domainVerificationToken: expect.any(String),
    })
    expect(JSON.stringify(registered.data)).not.toContain(CLIENT.secret)

    const listed = await client.sso.providers()
    expect(listed.error).toBeNull()
    // Field for field the element type of better-auth's GET /sso/providers answer.
    expect(listed.data?.providers).toEqual([
      expect.objectContaining({
        providerId: 'acme',
        type: 'oidc',
        issuer: op.issuer,
        domain: 'acme.test',
        organizationId,
        domainVerified: false,
        // better-auth masks the client id as `****` and its last four characters.
        oidcConfig: expect.objectContaining({ clientIdLastFour: `****${CLIENT.id.slice(-4)}`, discoveryEndpoint: `${op.issuer}/.well-known/openid-configuration`, pkce: true }),
        spMetadataUrl: expect.any(String),
      }),
    ])
    expect(JSON.stringify(listed.data)).not.toContain(CLIENT.secret)

    const got = await client.sso.getProvider({ query: { providerId: 'acme' } })
    expect(got.error).toBeNull()
    expect(got.data).toMatchObject({ providerId: 'acme', type: 'oidc', domain: 'acme.test', organizationId })

    // Before verification, email routing finds nobody (404, as better-auth answers); the client's error carries our code and message.
    const early = await betterAuthClient(new Browser(auth)).signIn.sso({ email: 'ada@acme.test', callbackURL: '/dashboard' })
    expect(early.data).toBeNull()
    expect(early.error).toMatchObject({ status: 404, code: 'PROVIDER_NOT_FOUND', message: 'Provider not found' })

    const requested = await client.sso.requestDomainVerification({ providerId: 'acme' })
    expect(requested.error).toBeNull()
    expect(requested.data).toEqual({ domainVerificationToken: expect.any(String) })
    auth.txt.set('_gatehouse-challenge.acme.test', [[requested.data?.domainVerificationToken as string]])
    const verified = await client.sso.verifyDomain({ providerId: 'acme' })
    // 204 No Content: better-fetch reads no body as null data, no error.
    expect(verified).toMatchObject({ data: null, error: null })
    expect((await client.sso.getProvider({ query: { providerId: 'acme' } })).data).toMatchObject({ domainVerified: true })

    for (const target of [{ organizationSlug: 'acme' }, { email: 'ada@acme.test' }, { providerId: 'acme' }]) {
      const browser = new Browser(auth)
      const person = betterAuthClient(browser)
      op.login = 'ada'
      const start = await person.signIn.sso({ ...target, callbackURL: '/dashboard' })
      expect(start.error).toBeNull()
      // What the client's redirect plugin follows: a URL at the IdP and redirect: true.
      expect(start.data).toEqual({ url: expect.any(String), redirect: true })
      const url = new URL(start.data?.url as string)
      expect(url.origin).toBe(op.issuer)
      expect(url.searchParams.get('redirect_uri')).toBe(callbackURL('acme'))
      const end = await browser.navigate(url.toString())
      expect(end.location).toBe(`${BASE}/dashboard`)
      const session = await person.getSession()
      expect(session.error).toBeNull()
      expect(session.data?.user).toMatchObject({ email: 'ada@acme.test', name: 'Ada Lovelace', emailVerified: true })
    }
    expect((await rows(auth, 'member')).filter((member) => member.organizationId === organizationId).map((member) => member.role).sort()).toEqual([
      'member',
      'owner',
    ])

    const deleted = await client.sso.deleteProvider({ providerId: 'acme' })
    expect(deleted).toMatchObject({ data: { success: true }, error: null })
    expect((await client.sso.providers()).data).toEqual({ providers: [] })
  })

  it("answers a stranger's register with the status, code and message better-auth's users check", async () => {
    const auth = ssoAuth([op.issuer])
    const { organizationId } = await adminWithOrganization(auth)
    const stranger = betterAuthClient(new Browser(auth))
    expect((await stranger.signUp.email({ email: 'eve@elsewhere.test', password: PASSWORD, name: 'Eve' })).error).toBeNull()
    const refused = await stranger.sso.register({
      providerId: 'eve',
      issuer: op.issuer,
      domain: 'acme.test',
      organizationId,
      oidcConfig: { clientId: CLIENT.id, clientSecret: CLIENT.secret },
    })
    expect(refused.data).toBeNull()
    expect(refused.error).toMatchObject({ status: 403, code: 'YOU_ARE_NOT_A_MEMBER_OF_THE_ORGANIZATION', message: 'You are not a member of the organization' })
    expect(await rows(auth, 'ssoProvider')).toEqual([])
  })
})
