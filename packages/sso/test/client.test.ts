/**
 * The client half (src/client.ts) against a real in-process server: the route
 * table matches the server's endpoints (the protocol routes reached by
 * navigation or by the IdP are left out on purpose), and an organization
 * admin's whole management walk (register, list, read, update, domain
 * verification with its 201 and 204, delete) parses with the shapes the
 * client expects.
 */
import { organizationClient } from '@gatehouse/organization/client'
import { createAuthClient } from '@gatehouse/react'
import { describe, expect, it } from 'vitest'
import { BASE } from '../../core/test/helpers.js'
import { browser } from '../../react/test/browser.js'
import { expectTableMatches } from '../../react/test/routes.js'
import { ssoClient, ssoRoutes } from '../src/client.js'
import { challengeName } from '../src/domains/dns-challenge.js'
import { resolveOptions } from '../src/options.js'
import { ssoEndpoints } from '../src/routes/index.js'
import { oidcRegistration, ssoAuth } from './management-fixtures.js'

describe('sso route table', () => {
  it('matches the server; the routes a browser reaches by navigation or the IdP posts to are left out', () => {
    const endpoints = ssoEndpoints(resolveOptions())
    const navigation = 'reached by browser navigation or by the identity provider, never by fetch'
    const leftOut = Object.fromEntries(
      Object.entries(endpoints)
        .filter(([, endpoint]) => endpoint.path.startsWith('/sso/callback') || endpoint.path.startsWith('/sso/saml2'))
        .map(([name]) => [name, navigation]),
    )
    expectTableMatches(ssoRoutes, endpoints, leftOut)
  })
})

describe('an admin managing a provider through the client', () => {
  it('register, providers, getProvider, updateProvider, requestDomainVerification, verifyDomain, deleteProvider', async () => {
    const auth = ssoAuth()
    const tab = browser(auth)
    const client = createAuthClient<typeof auth>({ baseURL: BASE, fetch: tab.fetch, plugins: [organizationClient(), ssoClient()] })
    expect((await client.signUp.email({ name: 'Ada', email: 'ada@client.test', password: 'correct horse battery' })).error).toBeNull()
    const { data: org } = await client.organization.create({ name: 'Acme', slug: 'acme-client' })
    if (!org) throw new Error('no organization')

    const registered = await client.sso.register(oidcRegistration(org.id, 'acme'))
    expect(registered.error).toBeNull()
    expect(registered.data).toMatchObject({ providerId: 'acme', type: 'oidc', domainVerified: false })
    expect(JSON.stringify(registered.data)).not.toContain('secret-of-acme')

    expect((await client.sso.providers()).data?.providers.map((provider) => provider.providerId)).toEqual(['acme'])
    expect((await client.sso.getProvider({ providerId: 'acme' })).data?.domain).toBe('acme.test')
    expect((await client.sso.updateProvider({ providerId: 'acme', twoFactor: 'require' })).data?.twoFactor).toBe('require')

    const requested = await client.sso.requestDomainVerification({ providerId: 'acme' })
    expect(requested).toEqual({ data: { domainVerificationToken: registered.data?.domainVerificationToken }, error: null })
    auth.zone.publish(challengeName('acme.test'), requested.data?.domainVerificationToken ?? '')
    expect(await client.sso.verifyDomain({ providerId: 'acme' })).toEqual({ data: null, error: null })
    const again = await client.sso.verifyDomain({ providerId: 'acme' })
    expect(again.error).toMatchObject({ status: 409, code: 'DOMAIN_ALREADY_VERIFIED' })

    expect((await client.sso.deleteProvider({ providerId: 'acme' })).data).toEqual({ success: true })
    expect((await client.sso.getProvider({ providerId: 'acme' })).error).toMatchObject({ status: 404, code: 'PROVIDER_NOT_FOUND' })
  })
})
