/**
 * Provider management (docs/sso.md#routes): who may register, read, update
 * and delete a provider (the organization's `sso` permission, run-time roles
 * included, the session read from the store), what is stored (secrets sealed)
 * and answered (never a secret), the reserved providerIds, the limit, and the
 * identity fields that stay fixed while accounts are linked.
 */
import { describe, expect, it } from 'vitest'
import { authed, signIn } from '../../core/test/accounts.js'
import { findProvider, readProvider } from '../src/services/provider-secrets.js'
import {
  addMember,
  createOrg,
  get,
  newUser,
  oidcRegistration,
  post,
  SAML_DECRYPTION_KEY,
  SAML_KEY,
  samlRegistration,
  ssoAuth,
  type SsoAuth,
} from './management-fixtures.js'

async function roster(auth: SsoAuth) {
  const owner = await newUser(auth)
  const admin = await newUser(auth)
  const member = await newUser(auth)
  const outsider = await newUser(auth)
  const org = await createOrg(auth, owner)
  await addMember(auth, org.id, admin, 'admin')
  await addMember(auth, org.id, member, 'member')
  return { owner, admin, member, outsider, org }
}

/** Every string value anywhere in `value`. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings)
  return []
}

describe('who may manage a provider', () => {
  it('an admin registers; a non-member and a member without the sso permission are refused 403, on every route', async () => {
    const auth = ssoAuth()
    const r = await roster(auth)

    const outsider = await post(auth, 'register', r.outsider, oidcRegistration(r.org.id, 'acme'))
    expect(outsider).toEqual({ status: 403, body: { code: 'YOU_ARE_NOT_A_MEMBER_OF_THE_ORGANIZATION', message: 'You are not a member of the organization' } })
    const member = await post(auth, 'register', r.member, oidcRegistration(r.org.id, 'acme'))
    expect(member.status).toBe(403)
    expect(member.body.code).toBe('YOU_ARE_NOT_ALLOWED_TO_REGISTER_SSO_PROVIDERS')

    const registered = await post(auth, 'register', r.admin, oidcRegistration(r.org.id, 'acme'))
    expect(registered.status).toBe(200)
    expect(registered.body).toMatchObject({
      providerId: 'acme',
      type: 'oidc',
      issuer: 'https://idp.acme.test',
      domain: 'acme.test',
      organizationId: r.org.id,
      domainVerified: false,
      twoFactor: 'skip',
      redirectURI: 'http://localhost:3000/api/auth/sso/callback/acme',
      spMetadataUrl: 'http://localhost:3000/api/auth/sso/saml2/sp/metadata?providerId=acme',
      oidcConfig: {
        clientIdLastFour: '****abcd',
        discoveryEndpoint: 'https://idp.acme.test/.well-known/openid-configuration',
        tokenEndpointAuthentication: 'client_secret_basic',
        pkce: true,
      },
    })
    expect(registered.body.domainVerificationToken).toMatch(/^[A-Za-z0-9]{32}$/)

    for (const caller of [r.outsider, r.member]) {
      expect((await get(auth, 'get-provider', caller, { providerId: 'acme' })).status).toBe(403)
      expect((await post(auth, 'update-provider', caller, { providerId: 'acme', twoFactor: 'require' })).status).toBe(403)
      expect((await post(auth, 'delete-provider', caller, { providerId: 'acme' })).status).toBe(403)
      expect((await post(auth, 'request-domain-verification', caller, { providerId: 'acme' })).status).toBe(403)
      expect((await post(auth, 'verify-domain', caller, { providerId: 'acme' })).status).toBe(403)
      expect(await get(auth, 'providers', caller)).toEqual({ status: 200, body: { providers: [] } })
    }
    expect((await get(auth, 'get-provider', r.outsider, { providerId: 'acme' })).body).toMatchObject({ message: "You don't have access to this provider" })
    expect((await get(auth, 'get-provider', r.owner, { providerId: 'nope' })).body).toMatchObject({ message: 'Provider not found' })
    expect((await get(auth, 'get-provider', r.owner, { providerId: 'acme' })).status).toBe(200)
    expect((await get(auth, 'providers', r.owner)).body.providers.map((p: { providerId: string }) => p.providerId)).toEqual(['acme'])
    expect((await post(auth, 'register', null, oidcRegistration(r.org.id, 'anon'))).status).toBe(401)
    expect(await post(auth, 'register', r.owner, { ...oidcRegistration(r.org.id, 'orphan'), organizationId: undefined })).toMatchObject({
      status: 400,
      body: { message: 'Organization ID is required' },
    })
  })

  it('a run-time role granting sso permissions may manage; one granting only read may read', async () => {
    const auth = ssoAuth({ organization: { dynamicAccessControl: { enabled: true } } })
    const r = await roster(auth)
    const created = await auth.handler(
      authed('/api/auth/organization/create-role', r.owner.cookie, {
        json: { organizationId: r.org.id, role: 'identity', permission: { sso: ['create', 'read', 'update', 'delete'] } },
      }),
    )
    expect(created.status).toBe(200)
    await auth.handler(authed('/api/auth/organization/create-role', r.owner.cookie, { json: { organizationId: r.org.id, role: 'auditor', permission: { sso: ['read'] } } }))
    const identity = await newUser(auth)
    const auditor = await newUser(auth)
    await addMember(auth, r.org.id, identity, 'identity')
    await addMember(auth, r.org.id, auditor, 'auditor')

    expect((await post(auth, 'register', identity, oidcRegistration(r.org.id, 'by-role'))).status).toBe(200)
    expect((await post(auth, 'register', auditor, oidcRegistration(r.org.id, 'by-auditor'))).status).toBe(403)
    expect((await get(auth, 'get-provider', auditor, { providerId: 'by-role' })).status).toBe(200)
    expect((await get(auth, 'providers', auditor)).body.providers).toHaveLength(1)
    expect((await post(auth, 'update-provider', auditor, { providerId: 'by-role', twoFactor: 'require' })).status).toBe(403)
    expect((await post(auth, 'delete-provider', identity, { providerId: 'by-role' })).body).toEqual({ success: true })
  })

  it('a session served from the cookie cache alone is refused once revoked', async () => {
    const auth = ssoAuth({ core: { session: { cookieCache: { enabled: true, maxAge: 300 } } } })
    const r = await roster(auth)
    const { cookie } = await signIn(auth, { email: r.admin.email })
    const admin = { ...r.admin, cookie }
    expect((await post(auth, 'register', admin, oidcRegistration(r.org.id, 'cached'))).status).toBe(200)
    // Revoked in the store; the browser still holds a signed cache cookie valid for minutes.
    const { db } = await auth.$context
    await db.deleteMany({ model: 'session', where: { field: 'userId', value: r.admin.id } })
    const session = await auth.handler(authed('/api/auth/get-session', cookie))
    expect((await session.json())?.user?.id).toBe(r.admin.id)
    for (const attempt of [
      await post(auth, 'register', admin, oidcRegistration(r.org.id, 'cached-2')),
      await get(auth, 'providers', admin),
      await get(auth, 'get-provider', admin, { providerId: 'cached' }),
      await post(auth, 'delete-provider', admin, { providerId: 'cached' }),
    ]) {
      expect(attempt.status).toBe(401)
    }
    expect(await findProvider(db, 'cached')).not.toBeNull()
  })
})

describe('what is stored and answered', () => {
  it('OIDC client secrets and SAML keys are sealed in the row and never answered; readProvider opens them', async () => {
    const auth = ssoAuth()
    const r = await roster(auth)
    const oidc = await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'sealed-oidc'))
    const saml = await post(auth, 'register', r.owner, samlRegistration(r.org.id, 'sealed-saml', 'saml.test'))
    expect(saml.status).toBe(200)
    expect(saml.body).toMatchObject({
      type: 'saml',
      redirectURI: 'http://localhost:3000/api/auth/sso/saml2/sp/acs/sealed-saml',
      samlConfig: { entryPoint: 'https://idp.acme.test/saml/sso', callbackUrl: '/', certificate: [{ error: 'Failed to parse certificate' }] },
    })
    const secrets = ['secret-of-sealed-oidc-0123456789', SAML_KEY, SAML_DECRYPTION_KEY, 'sp-signing-key-material', 'sp-decryption-key-material']
    const answers = [
      oidc.body,
      saml.body,
      (await get(auth, 'providers', r.owner)).body,
      (await get(auth, 'get-provider', r.owner, { providerId: 'sealed-saml' })).body,
      (await post(auth, 'update-provider', r.owner, { providerId: 'sealed-oidc', oidcConfig: { clientSecret: 'rotated-secret-value' } })).body,
    ]
    for (const answer of answers) {
      const text = JSON.stringify(answer)
      for (const secret of [...secrets, 'rotated-secret-value']) expect(text).not.toContain(secret)
      expect(strings(answer).some((value) => value.includes('clientSecret') || value.includes('PRIVATE KEY'))).toBe(false)
    }

    const { db, secrets: keys, logger } = await auth.$context
    const rows = await db.findMany({ model: 'ssoProvider' })
    const stored = JSON.stringify(rows)
    for (const secret of [...secrets, 'rotated-secret-value']) expect(stored).not.toContain(secret)
    const oidcRow = await findProvider(db, 'sealed-oidc')
    const samlRow = await findProvider(db, 'sealed-saml')
    expect(JSON.parse(String(oidcRow?.oidcConfig)).clientSecret).toMatch(/^v1\.[\w-]+\.[\w-]+$/)
    const opened = await readProvider({ secrets: keys, logger }, oidcRow!)
    expect(opened.oidc?.clientSecret).toBe('rotated-secret-value')
    const openedSaml = await readProvider({ secrets: keys, logger }, samlRow!)
    expect(openedSaml.saml).toMatchObject({ privateKey: SAML_KEY, decryptionPvk: SAML_DECRYPTION_KEY, cert: 'MIIBfake', callbackUrl: '/' })

    // A sealed value copied to another provider's row does not open there.
    const sealedSecret = JSON.parse(String(oidcRow?.oidcConfig)).clientSecret as string
    const other = await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'other-oidc', 'other.test'))
    expect(other.status).toBe(200)
    const otherRow = await findProvider(db, 'other-oidc')
    const tampered = { ...otherRow!, oidcConfig: JSON.stringify({ ...JSON.parse(String(otherRow?.oidcConfig)), clientSecret: sealedSecret }) }
    await expect(readProvider({ secrets: keys, logger }, tampered)).rejects.toMatchObject({ code: 'PROVIDER_SECRET_UNREADABLE' })
  })

  it('after the auth secret rotates, rows sealed under the old one still open', async () => {
    const OLD = 'old-secret-0123456789-abcdefghijklmnopq'
    const NEW = 'new-secret-0123456789-abcdefghijklmnopq'
    const before = ssoAuth({ core: { secret: OLD } })
    const r = await roster(before)
    expect((await post(before, 'register', r.owner, oidcRegistration(r.org.id, 'rotating'))).status).toBe(200)
    const { db, logger } = await before.$context
    const row = await findProvider(db, 'rotating')
    const rotated = ssoAuth({ core: { secret: [NEW, OLD] } })
    const onlyNew = ssoAuth({ core: { secret: NEW } })
    const { secrets: rotatedKeys } = await rotated.$context
    const { secrets: newKeys } = await onlyNew.$context
    expect((await readProvider({ secrets: rotatedKeys, logger }, row!)).oidc?.clientSecret).toBe('secret-of-rotating-0123456789')
    await expect(readProvider({ secrets: newKeys, logger }, row!)).rejects.toMatchObject({ code: 'PROVIDER_SECRET_UNREADABLE' })
  })
})

describe('register checks', () => {
  it('refuses reserved and taken providerIds, bad formats, bad domains and unsafe URLs', async () => {
    const auth = ssoAuth({ core: { socialProviders: { github: { clientId: 'gh', clientSecret: 'gh-secret' } } } })
    const r = await roster(auth)
    const { db } = await auth.$context
    // An account row of a social provider since removed from the configuration.
    await db.create({ model: 'account', data: { providerId: 'gitlab', accountId: '42', userId: r.member.id } })
    for (const providerId of ['credential', 'github', 'GitHub', 'gitlab', 'magic-link']) {
      const refused = await post(auth, 'register', r.owner, oidcRegistration(r.org.id, providerId))
      expect(refused, providerId).toMatchObject({ status: 422, body: { message: 'This providerId is reserved and cannot be used for an SSO provider' } })
    }
    for (const providerId of ['../x', '-lead', 'a b', 'x'.repeat(65), 'é']) {
      expect((await post(auth, 'register', r.owner, oidcRegistration(r.org.id, providerId))).body.code, providerId).toBe('INVALID_PROVIDER_ID')
    }
    expect((await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'taken'))).status).toBe(200)
    expect(await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'taken'))).toMatchObject({
      status: 422,
      body: { message: 'SSO provider with this providerId already exists' },
    })
    for (const domain of ['https://acme.test', 'acme', '10.0.0.1', 'acme.test:443', 'a..test', 'user@acme.test', 'acme.test,other.test']) {
      expect((await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'bad-domain', domain))).body.code, domain).toBe('INVALID_DOMAIN')
    }
    const idn = await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'idn', 'Bücher.Example.'))
    expect(idn.body.domain).toBe('xn--bcher-kva.example')

    const unsafe = [
      { issuer: 'http://idp.acme.test' },
      { issuer: 'https://127.0.0.1' },
      { oidcConfig: { clientId: 'c', clientSecret: 's', tokenEndpoint: 'https://169.254.169.254/token' } },
      { oidcConfig: { clientId: 'c', clientSecret: 's', jwksEndpoint: 'https://localhost/jwks' } },
      { oidcConfig: { clientId: 'c', clientSecret: 's', authorizationEndpoint: 'javascript:alert(1)' } },
    ]
    for (const change of unsafe) {
      const refused = await post(auth, 'register', r.owner, { ...oidcRegistration(r.org.id, 'unsafe'), ...change })
      expect(refused.status, JSON.stringify(change)).toBe(400)
    }
    const samlUnsafe = { ...samlRegistration(r.org.id, 'unsafe-saml') }
    expect((await post(auth, 'register', r.owner, { ...samlUnsafe, samlConfig: { ...samlUnsafe.samlConfig, callbackUrl: 'https://evil.test/land' } })).body.code).toBe('UNSAFE_URL')
    expect((await post(auth, 'register', r.owner, { ...samlUnsafe, samlConfig: { ...samlUnsafe.samlConfig, callbackUrl: '//evil.test' } })).body.code).toBe('UNSAFE_URL')
    expect(await findProvider(db, 'unsafe')).toBeNull()
  })

  it('caps every input: metadata XML of 100 KiB, URLs of 2048 characters', async () => {
    const auth = ssoAuth()
    const r = await roster(auth)
    const saml = samlRegistration(r.org.id, 'big')
    const big = await post(auth, 'register', r.owner, { ...saml, samlConfig: { ...saml.samlConfig, idpMetadata: { metadata: `<x>${'a'.repeat(102_400)}</x>` } } })
    expect(big.status).toBe(400)
    const longUrl = await post(auth, 'register', r.owner, { ...oidcRegistration(r.org.id, 'long'), issuer: `https://idp.acme.test/${'a'.repeat(2048)}` })
    expect(longUrl.status).toBe(400)
    const longCert = await post(auth, 'register', r.owner, { ...saml, samlConfig: { ...saml.samlConfig, cert: 'A'.repeat(16 * 1024 + 1) } })
    expect(longCert.status).toBe(400)
    const { db } = await auth.$context
    expect(await db.count({ model: 'ssoProvider' })).toBe(0)
  })

  it('needs one protocol, a client secret, a SAML certificate, and counts the per-organization limit', async () => {
    const auth = ssoAuth({ sso: { providersLimit: 2 } })
    const r = await roster(auth)
    const base = oidcRegistration(r.org.id, 'none')
    expect((await post(auth, 'register', r.owner, { ...base, oidcConfig: undefined })).body.code).toBe('PROTOCOL_CONFIG_REQUIRED')
    expect((await post(auth, 'register', r.owner, { ...base, samlConfig: samlRegistration(r.org.id, 'x').samlConfig })).body.code).toBe('ONE_PROTOCOL_ONLY')
    expect((await post(auth, 'register', r.owner, { ...base, oidcConfig: { clientId: 'c' } })).body.code).toBe('CLIENT_SECRET_REQUIRED')
    const saml = samlRegistration(r.org.id, 'no-cert')
    expect((await post(auth, 'register', r.owner, { ...saml, samlConfig: { ...saml.samlConfig, cert: undefined } })).body.code).toBe('SAML_CERT_REQUIRED')

    expect((await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'one'))).status).toBe(200)
    expect((await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'two'))).status).toBe(200)
    expect(await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'three'))).toMatchObject({
      status: 403,
      body: { message: 'You have reached the maximum number of SSO providers' },
    })
    // The limit is per organization.
    const elsewhere = await createOrg(auth, r.owner)
    expect((await post(auth, 'register', r.owner, oidcRegistration(elsewhere.id, 'three'))).status).toBe(200)
  })

  it('concurrent registrations never pass the limit', async () => {
    const auth = ssoAuth({ sso: { providersLimit: 3 } })
    const r = await roster(auth)
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => post(auth, 'register', r.owner, oidcRegistration(r.org.id, `race-${i}`))))
    expect(replies.filter((answer) => answer.status === 200)).toHaveLength(3)
    const { db } = await auth.$context
    expect(await db.count({ model: 'ssoProvider', where: { field: 'organizationId', value: r.org.id } })).toBe(3)
  })
})

describe('update and delete', () => {
  it('identity fields cannot change while accounts are linked (409); secrets, mapping and policy can', async () => {
    const auth = ssoAuth()
    const r = await roster(auth)
    expect((await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'locked'))).status).toBe(200)
    // Before any account: the client may move.
    expect((await post(auth, 'update-provider', r.owner, { providerId: 'locked', oidcConfig: { clientId: 'moved-client-wxyz' } })).body.oidcConfig.clientIdLastFour).toBe('****wxyz')
    const { db } = await auth.$context
    await db.create({ model: 'account', data: { providerId: 'locked', accountId: 'sub-1', userId: r.member.id } })

    for (const change of [
      { issuer: 'https://other-idp.test' },
      { oidcConfig: { clientId: 'another-client' } },
      { oidcConfig: { tokenEndpoint: 'https://other-idp.test/token' } },
      { oidcConfig: { discoveryEndpoint: 'https://other-idp.test/.well-known/openid-configuration' } },
    ]) {
      expect(await post(auth, 'update-provider', r.owner, { providerId: 'locked', ...change }), JSON.stringify(change)).toMatchObject({
        status: 409,
        body: { message: 'Cannot change SSO provider identity fields while linked accounts exist' },
      })
    }
    const allowed = await post(auth, 'update-provider', r.owner, {
      providerId: 'locked',
      oidcConfig: { clientSecret: 'new-secret', scopes: ['openid', 'email', 'groups'], mapping: { groups: 'roles' } },
      twoFactor: 'require',
    })
    expect(allowed.status).toBe(200)
    expect(allowed.body).toMatchObject({ twoFactor: 'require', oidcConfig: { scopes: ['openid', 'email', 'groups'], clientIdLastFour: '****wxyz' } })
    expect((await post(auth, 'update-provider', r.owner, { providerId: 'locked' })).body.message).toBe('No fields provided for update')
    expect((await post(auth, 'update-provider', r.owner, { providerId: 'locked', samlConfig: { entryPoint: 'https://x.test' } })).body.message).toBe(
      "Cannot update SAML config for a provider that doesn't have SAML configured",
    )
  })

  it('the SAML identity (entry point, IdP entity) is locked too; the certificate rotates and the SP keys change', async () => {
    const auth = ssoAuth()
    const r = await roster(auth)
    expect((await post(auth, 'register', r.owner, samlRegistration(r.org.id, 'saml-locked'))).status).toBe(200)
    const { db } = await auth.$context
    await db.create({ model: 'account', data: { providerId: 'saml-locked', accountId: 'nameid-1', userId: r.member.id } })
    for (const samlConfig of [{ entryPoint: 'https://other-idp.test/sso' }, { idpMetadata: { entityID: 'https://other-idp.test' } }]) {
      expect((await post(auth, 'update-provider', r.owner, { providerId: 'saml-locked', samlConfig })).status, JSON.stringify(samlConfig)).toBe(409)
    }
    const keys = await post(auth, 'update-provider', r.owner, { providerId: 'saml-locked', samlConfig: { privateKey: 'new-key', callbackUrl: '/welcome' } })
    expect(keys.status).toBe(200)
    expect(keys.body.samlConfig.callbackUrl).toBe('/welcome')
    // The IdP's signing certificate rotates before it expires: same IdP, new key.
    expect((await post(auth, 'update-provider', r.owner, { providerId: 'saml-locked', samlConfig: { cert: 'MIIBrotated' } })).status).toBe(200)
    expect((await findProvider(db, 'saml-locked'))?.samlConfig).toContain('MIIBrotated')
  })

  it('delete removes the provider, its linked accounts, its tokens and the sessions signed in through it, nothing else', async () => {
    const auth = ssoAuth()
    const r = await roster(auth)
    expect((await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'doomed'))).status).toBe(200)
    expect((await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'kept', 'kept.test'))).status).toBe(200)
    const { db } = await auth.$context
    await db.create({ model: 'account', data: { providerId: 'doomed', accountId: 'sub-1', userId: r.member.id } })
    await db.create({ model: 'account', data: { providerId: 'kept', accountId: 'sub-2', userId: r.member.id } })
    const through = await db.create({
      model: 'session',
      data: { userId: r.member.id, token: 'hash-through-doomed', expiresAt: new Date(Date.now() + 3_600_000), ssoProviderId: 'doomed' },
    })
    const sessionsBefore = await db.count({ model: 'session', where: { field: 'userId', value: r.member.id } })

    expect(await post(auth, 'delete-provider', r.admin, { providerId: 'doomed' })).toEqual({ status: 200, body: { success: true } })
    expect(await findProvider(db, 'doomed')).toBeNull()
    expect(await db.count({ model: 'account', where: { field: 'providerId', value: 'doomed' } })).toBe(0)
    expect(await db.count({ model: 'account', where: { field: 'providerId', value: 'kept' } })).toBe(1)
    expect(await db.findOne({ model: 'session', where: { field: 'id', value: String(through.id) } })).toBeNull()
    expect(await db.count({ model: 'session', where: { field: 'userId', value: r.member.id } })).toBe(sessionsBefore - 1)
    expect(await db.count({ model: 'verification', where: { field: 'identifier', value: 'sso-domain:doomed' } })).toBe(0)
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: r.member.id } })).not.toBeNull()
    expect((await post(auth, 'delete-provider', r.admin, { providerId: 'doomed' })).status).toBe(404)
  })

  it('deleting the organization removes its providers with their accounts and sessions', async () => {
    const auth = ssoAuth()
    const r = await roster(auth)
    expect((await post(auth, 'register', r.owner, oidcRegistration(r.org.id, 'org-bound'))).status).toBe(200)
    const { db } = await auth.$context
    await db.create({ model: 'account', data: { providerId: 'org-bound', accountId: 'sub-1', userId: r.member.id } })
    await db.create({
      model: 'session',
      data: { userId: r.member.id, token: 'hash-through-org-bound', expiresAt: new Date(Date.now() + 3_600_000), ssoProviderId: 'org-bound' },
    })
    const deleted = await auth.handler(authed('/api/auth/organization/delete', r.owner.cookie, { json: { organizationId: r.org.id } }))
    expect(deleted.status).toBe(200)
    expect(await findProvider(db, 'org-bound')).toBeNull()
    expect(await db.count({ model: 'account', where: { field: 'providerId', value: 'org-bound' } })).toBe(0)
    expect(await db.count({ model: 'session', where: { field: 'ssoProviderId', value: 'org-bound' } })).toBe(0)
  })
})
