/**
 * OpenID Connect discovery at registration (routes/provider/register.ts):
 * the document is fetched through the SSRF-safe fetch and must name the
 * issuer registered, else 400 with discovery's own message and nothing is
 * stored; only the endpoints the admin gave are stored, never the
 * discovered ones. The test IdP is a node:http server on 127.0.0.1, a
 * trusted origin, as an internal IdP would be.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findProvider } from '../src/services/provider-secrets.js'
import { createOrg, newUser, post, ssoAuth } from './management-fixtures.js'

let server: Server
let origin = ''
/** What the discovery document says its issuer is, per path prefix. */
const documents = new Map<string, Record<string, unknown>>()

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? ''
    const tenant = path.split('/')[1] ?? ''
    const document = documents.get(tenant)
    if (!document || !path.endsWith('/.well-known/openid-configuration')) {
      response.writeHead(404).end()
      return
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

function documentFor(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/jwks`,
    userinfo_endpoint: `${issuer}/userinfo`,
  }
}

describe('discovery when registering an OIDC provider', () => {
  it('stores a provider whose document names its issuer, keeping only the endpoints given', async () => {
    documents.set('good', documentFor(`${origin}/good`))
    const auth = ssoAuth({ core: { trustedOrigins: [origin] } })
    const owner = await newUser(auth)
    const org = await createOrg(auth, owner)
    const answer = await post(auth, 'register', owner, {
      providerId: 'good',
      organizationId: org.id,
      issuer: `${origin}/good`,
      domain: 'good.test',
      oidcConfig: { clientId: 'client-good', clientSecret: 'secret-good' },
    })
    expect(answer.status).toBe(200)
    expect(answer.body.oidcConfig).toMatchObject({ discoveryEndpoint: `${origin}/good/.well-known/openid-configuration` })
    expect(answer.body.oidcConfig.tokenEndpoint).toBeUndefined()
    const { db } = await auth.$context
    expect(JSON.parse(String((await findProvider(db, 'good'))?.oidcConfig))).not.toHaveProperty('tokenEndpoint')
  })

  it('refuses a document naming another issuer, a missing document and an issuer that is not trusted, storing nothing', async () => {
    documents.set('liar', documentFor('https://someone-else.test'))
    const auth = ssoAuth({ core: { trustedOrigins: [origin] } })
    const owner = await newUser(auth)
    const org = await createOrg(auth, owner)
    const register = (providerId: string, issuer: string) =>
      post(auth, 'register', owner, { providerId, organizationId: org.id, issuer, domain: `${providerId}.test`, oidcConfig: { clientId: 'c', clientSecret: 's' } })

    const liar = await register('liar', `${origin}/liar`)
    expect(liar.status).toBe(400)
    expect(liar.body.code).toBe('DISCOVERY_FAILED')
    expect(liar.body.message).toContain('someone-else.test')
    const missing = await register('missing', `${origin}/missing`)
    expect(missing).toMatchObject({ status: 400, body: { code: 'DISCOVERY_FAILED' } })

    const untrusted = ssoAuth()
    const other = await newUser(untrusted)
    const otherOrg = await createOrg(untrusted, other)
    documents.set('good', documentFor(`${origin}/good`))
    const refused = await post(untrusted, 'register', other, {
      providerId: 'internal',
      organizationId: otherOrg.id,
      issuer: `${origin}/good`,
      domain: 'internal.test',
      oidcConfig: { clientId: 'c', clientSecret: 's' },
    })
    expect(refused).toMatchObject({ status: 400, body: { code: 'UNSAFE_URL' } })

    const { db } = await auth.$context
    expect(await db.count({ model: 'ssoProvider' })).toBe(0)
  })

  it('trusts only exact trustedOrigins entries for fetching: not a wildcard pattern, not the app\'s own base URL', async () => {
    documents.set('good', documentFor(`${origin}/good`))
    const register = async (auth: ReturnType<typeof ssoAuth>) => {
      const owner = await newUser(auth)
      const org = await createOrg(auth, owner)
      return post(auth, 'register', owner, {
        providerId: 'pattern',
        organizationId: org.id,
        issuer: `${origin}/good`,
        domain: 'pattern.test',
        oidcConfig: { clientId: 'c', clientSecret: 's' },
      })
    }
    // Core trusts both for redirects and the origin check; a fetch must not.
    const wildcard = ssoAuth({ core: { trustedOrigins: [origin.replace('127.0.0.1', '*.0.0.1')] } })
    expect((await wildcard.$context).isTrustedOrigin(origin)).toBe(true)
    expect(await register(wildcard)).toMatchObject({ status: 400, body: { code: 'UNSAFE_URL' } })
    const ownOrigin = ssoAuth({ core: { baseURL: origin, trustedOrigins: ['http://localhost:3000'] } })
    expect((await ownOrigin.$context).isTrustedOrigin(origin)).toBe(true)
    expect(await register(ownOrigin)).toMatchObject({ status: 400, body: { code: 'UNSAFE_URL' } })
    const exact = ssoAuth({ core: { trustedOrigins: [origin] } })
    expect((await register(exact)).status).toBe(200)
  })
})
