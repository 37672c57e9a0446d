/**
 * The client half (src/client.ts) against a real in-process server: the
 * route table matches the server's endpoints (the `/scim/v2` routes, called
 * by a directory with its token, are left out on purpose), and an owner's
 * walk through the token calls parses with the shapes the client expects,
 * dates revived.
 */
import { organizationClient } from '@gatehouse/organization/client'
import { createAuthClient } from '@gatehouse/react'
import { describe, expect, it } from 'vitest'
import { BASE } from '../../core/test/helpers.js'
import { browser } from '../../react/test/browser.js'
import { expectTableMatches } from '../../react/test/routes.js'
import { scimClient, scimRoutes } from '../src/client.js'
import { resolveOptions } from '../src/options.js'
import { scimEndpoints } from '../src/routes/index.js'
import { directory, scimAuth } from './fixtures.js'

describe('scim route table', () => {
  it('matches the server; the SCIM 2.0 routes a directory calls are left out', () => {
    const endpoints = scimEndpoints(resolveOptions())
    const directoryRoutes = Object.fromEntries(
      Object.entries(endpoints)
        .filter(([, endpoint]) => endpoint.path.startsWith('/scim/v2/'))
        .map(([name]) => [name, 'called by the directory with its bearer token, never by the browser']),
    )
    expectTableMatches(scimRoutes, endpoints, directoryRoutes)
  })
})

describe('an owner managing tokens through the client', () => {
  it('generateToken, listTokens, revokeToken', async () => {
    const auth = scimAuth()
    const tab = browser(auth)
    const client = createAuthClient<typeof auth>({ baseURL: BASE, fetch: tab.fetch, plugins: [organizationClient(), scimClient()] })
    expect((await client.signUp.email({ name: 'Ada', email: 'ada@client.test', password: 'correct horse battery' })).error).toBeNull()
    const { data: org } = await client.organization.create({ name: 'Acme', slug: 'acme-scim-client' })
    if (!org) throw new Error('no organization')

    const generated = await client.scim.generateToken({ organizationId: org.id, providerId: 'okta' })
    expect(generated.error).toBeNull()
    expect(generated.data).toMatchObject({ providerId: 'okta', organizationId: org.id, expiresAt: null })
    expect(generated.data?.createdAt).toBeInstanceOf(Date)
    const token = generated.data?.scimToken ?? ''
    expect((await directory(auth, token).get('/Users')).status).toBe(200)

    const listed = await client.scim.listTokens({ organizationId: org.id })
    expect(listed.data?.tokens).toEqual([expect.objectContaining({ id: generated.data?.id, start: token.slice(0, 19), lastUsedAt: expect.any(Date) })])
    expect(JSON.stringify(listed.data)).not.toContain(token)

    expect((await client.scim.revokeToken({ tokenId: generated.data?.id ?? '' })).data).toEqual({ success: true })
    expect((await directory(auth, token).get('/Users')).status).toBe(401)
    const missing = await client.scim.revokeToken({ tokenId: generated.data?.id ?? '' })
    expect(missing.error).toMatchObject({ status: 404, code: 'SCIM_TOKEN_NOT_FOUND' })
  })
})
