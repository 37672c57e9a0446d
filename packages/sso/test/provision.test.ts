/**
 * The end of an SSO sign-in (services/provision.ts, docs/sso.md#signing-in),
 * driven through a test endpoint that hands a profile to `completeSsoSignIn`
 * as the OIDC callback and the SAML completion step do, through core's real
 * endpoint layer (cookies, redirects, database hooks of other plugins).
 * Covered: the domain rules (another domain, an unverified domain, existing
 * users before verification), just-in-time users and their membership and
 * role, linking, the proof of the mailbox, bans, the credential version,
 * sign-up off, the membership limit, a provider changed under the flow, and
 * concurrent first sign-ins. The two-factor policy: provision-two-factor.test.ts.
 */
import { definePlugin } from '@gatehouse/core'
import { organization } from '@gatehouse/organization'
import { describe, expect, it } from 'vitest'
import { accountAuth, signIn } from '../../core/test/accounts.js'
import { sso } from '../src/plugin.js'
import { findProvider, readProvider } from '../src/services/provider-secrets.js'
import { makeZone, newUser, post, type TestUser } from './management-fixtures.js'
import { complete, completer, organizationWithProvider, profile, provisionAuth, rows, sessionUser, type ProvisionAuth } from './provision-fixtures.js'

describe('just-in-time provisioning', () => {
  it('a first sign-in creates the user (verified), links the account, adds the member with the mapped role, signs in with amr fed', async () => {
    const auth = provisionAuth({ sso: { organizationProvisioning: { roleMapping: { 'idp-admins': 'admin', 'idp-staff': 'member' } } } })
    const { org } = await organizationWithProvider(auth)
    const landed = await complete(auth, 'acme', profile('Ada@ACME.test', { groups: ['idp-admins', 'unrelated'] }))
    expect(landed).toMatchObject({ status: 302, location: '/welcome', error: null })
    expect((await sessionUser(auth, landed.cookie))?.email).toBe('ada@acme.test')

    const stored = await rows(auth, 'ada@acme.test')
    expect(stored.user).toMatchObject({ name: 'Ada Lovelace', emailVerified: true })
    expect(stored.accounts).toMatchObject([{ providerId: 'acme', accountId: 'sub-Ada@ACME.test' }])
    expect(stored.members).toMatchObject([{ organizationId: org.id, role: 'admin' }])
    expect(stored.sessions).toMatchObject([{ amr: 'fed', ssoProviderId: 'acme' }])

    // The second sign-in finds the account; a member keeps their role whatever the groups say now.
    const again = await complete(auth, 'acme', profile('Ada@ACME.test', { groups: ['idp-staff'] }))
    expect(again).toMatchObject({ status: 302, location: '/dashboard', error: null })
    const after = await rows(auth, 'ada@acme.test')
    expect(after.members).toMatchObject([{ role: 'admin' }])
    expect(after.accounts).toHaveLength(1)
    expect(after.sessions).toHaveLength(2)
  })

  it('no group matched: the default role; a role mapping function is asked with the profile and provider', async () => {
    const asked: Array<{ email: string; providerId: string }> = []
    const auth = provisionAuth({
      sso: {
        organizationProvisioning: {
          roleMapping: (signed, provider) => {
            asked.push({ email: signed.email, providerId: provider.providerId })
            return signed.email.startsWith('boss') ? ['admin', 'member'] : null
          },
        },
      },
    })
    await organizationWithProvider(auth)
    await complete(auth, 'acme', profile('boss@acme.test'))
    await complete(auth, 'acme', profile('staff@acme.test'))
    expect((await rows(auth, 'boss@acme.test')).members).toMatchObject([{ role: 'admin,member' }])
    expect((await rows(auth, 'staff@acme.test')).members).toMatchObject([{ role: 'member' }])
    expect(asked).toEqual([
      { email: 'boss@acme.test', providerId: 'acme' },
      { email: 'staff@acme.test', providerId: 'acme' },
    ])
  })

  it('a mapped role the organization does not define refuses the sign-in and creates nothing', async () => {
    const auth = provisionAuth({ sso: { organizationProvisioning: { defaultRole: 'typo' } } })
    await organizationWithProvider(auth)
    const landed = await complete(auth, 'acme', profile('ada@acme.test'))
    expect(landed).toMatchObject({ status: 302, error: 'role_not_found' })
    expect(landed.location.startsWith('/sign-in?')).toBe(true)
    expect((await rows(auth, 'ada@acme.test')).user).toBeNull()
  })

  it('the membership limit refuses a new person, and the user is not created either', async () => {
    const auth = provisionAuth({ organization: { membershipLimit: 1 } })
    await organizationWithProvider(auth)
    expect(await complete(auth, 'acme', profile('ada@acme.test'))).toMatchObject({ error: 'organization_membership_limit_reached', cookie: '' })
    expect((await rows(auth, 'ada@acme.test')).user).toBeNull()
  })

  it("a member the organization's directory suspended (member.suspendedAt, as SCIM sets it) is refused with member_suspended", async () => {
    // The column the SCIM plugin's schema adds; the organization plugin reads it when present.
    const suspension = definePlugin({ id: 'suspension-column', schema: { member: { fields: { suspendedAt: { type: 'date', required: false } } } } })
    const auth = provisionAuth({ plugins: [suspension] })
    const { org } = await organizationWithProvider(auth)
    expect((await complete(auth, 'acme', profile('ada@acme.test'))).error).toBeNull()
    const { db } = await auth.$context
    const ada = (await rows(auth, 'ada@acme.test')).user
    await db.update({ model: 'member', where: [{ field: 'organizationId', value: org.id }, { field: 'userId', value: ada?.id ?? '' }], update: { suspendedAt: auth.clock.now() } })
    expect(await complete(auth, 'acme', profile('ada@acme.test'))).toMatchObject({ error: 'member_suspended', cookie: '' })
  })

  it('disableImplicitSignUp creates nobody unless the sign-in asked for sign-up', async () => {
    const auth = provisionAuth({ sso: { disableImplicitSignUp: true } })
    await organizationWithProvider(auth)
    expect((await complete(auth, 'acme', profile('ada@acme.test'))).error).toBe('signup_disabled')
    expect((await rows(auth, 'ada@acme.test')).user).toBeNull()
    expect((await complete(auth, 'acme', profile('ada@acme.test'), { landing: { requestSignUp: true } })).location).toBe('/welcome')
  })

  it('twenty concurrent first sign-ins of one person make one user, one account, one member', async () => {
    const auth = provisionAuth()
    await organizationWithProvider(auth)
    const landed = await Promise.all(Array.from({ length: 20 }, () => complete(auth, 'acme', profile('ada@acme.test'))))
    expect(landed.every((one) => one.status === 302 && one.error === null)).toBe(true)
    const stored = await rows(auth, 'ada@acme.test')
    expect(stored.accounts).toHaveLength(1)
    expect(stored.members).toHaveLength(1)
    expect(stored.sessions).toHaveLength(20)
  })
})

describe('the domain rules', () => {
  it('a provider of domain A never signs in an address of domain B, nor a subdomain of A', async () => {
    const auth = provisionAuth()
    await organizationWithProvider(auth)
    const victim = await newUser(auth, { email: 'bob@other.test' })
    for (const email of ['bob@other.test', 'carol@eu.acme.test', 'dave@acme.test.evil.test', 'not-an-email']) {
      const landed = await complete(auth, 'acme', profile(email))
      expect(landed.error, email).toBe(email === 'not-an-email' ? 'invalid_email' : 'email_domain_mismatch')
      expect(landed.cookie).toBe('')
    }
    expect((await rows(auth, 'bob@other.test')).accounts.some((account) => account.providerId === 'acme')).toBe(false)
    expect((await rows(auth, 'carol@eu.acme.test')).user).toBeNull()
    expect(victim.email).toBe('bob@other.test')
  })

  it('with domain verification required (the default), an unverified provider signs nobody in', async () => {
    const auth = provisionAuth()
    await organizationWithProvider(auth, { verified: false })
    expect((await complete(auth, 'acme', profile('ada@acme.test'))).error).toBe('domain_not_verified')
    expect((await rows(auth, 'ada@acme.test')).user).toBeNull()
  })

  it('not required: an unverified provider creates new users, unverified, and never signs in or links an existing one', async () => {
    const auth = provisionAuth({ sso: { domainVerification: { required: false } } })
    await organizationWithProvider(auth, { verified: false })
    const existing = await newUser(auth, { email: 'ada@acme.test' })
    const refused = await complete(auth, 'acme', profile('ada@acme.test'))
    expect(refused).toMatchObject({ error: 'account_not_linked', cookie: '' })
    expect((await rows(auth, 'ada@acme.test')).accounts.map((account) => account.providerId)).toEqual(['credential'])
    expect((await rows(auth, 'ada@acme.test')).user?.id).toBe(existing.id)

    const created = await complete(auth, 'acme', profile('newcomer@acme.test'))
    expect(created).toMatchObject({ location: '/welcome', error: null })
    expect((await rows(auth, 'newcomer@acme.test')).user).toMatchObject({ emailVerified: false })

    // Once the domain is verified, the provider's next sign-in of that user vouches for the address.
    const { db } = await auth.$context
    const row = await findProvider(db, 'acme')
    await db.update({ model: 'ssoProvider', where: { field: 'id', value: String(row?.id) }, update: { domainVerified: true, verifiedDomain: 'acme.test' } })
    expect((await complete(auth, 'acme', profile('newcomer@acme.test'))).error).toBeNull()
    expect((await rows(auth, 'newcomer@acme.test')).user).toMatchObject({ emailVerified: true })
  })

  it('an existing user of the verified domain is linked and signed in; the linked account keeps signing in after the address changes at the IdP', async () => {
    const auth = provisionAuth()
    await organizationWithProvider(auth)
    const existing = await newUser(auth, { email: 'ada@acme.test' })
    const landed = await complete(auth, 'acme', profile('ada@acme.test', { accountId: 'sub-ada' }))
    expect(landed).toMatchObject({ location: '/dashboard', error: null })
    expect((await sessionUser(auth, landed.cookie))?.id).toBe(existing.id)
    expect((await rows(auth, 'ada@acme.test')).accounts.map((account) => account.providerId).sort()).toEqual(['acme', 'credential'])

    const renamed = await complete(auth, 'acme', profile('ada.byron@acme.test', { accountId: 'sub-ada' }))
    expect((await sessionUser(auth, renamed.cookie))?.id).toBe(existing.id)
    // Still the same account, but the address the IdP sends must stay at the domain.
    expect((await complete(auth, 'acme', profile('ada@elsewhere.test', { accountId: 'sub-ada' }))).error).toBe('email_domain_mismatch')
  })

  it('an existing unverified user is made the only owner first: earlier sessions and the password go', async () => {
    const auth = provisionAuth()
    await organizationWithProvider(auth)
    const squatter = await newUser(auth, { email: 'ada@acme.test', verified: false })
    const landed = await complete(auth, 'acme', profile('ada@acme.test'))
    expect(landed.error).toBeNull()
    const stored = await rows(auth, 'ada@acme.test')
    expect(stored.user).toMatchObject({ id: squatter.id, emailVerified: true })
    expect(stored.accounts.map((account) => account.providerId)).toEqual(['acme'])
    expect(await sessionUser(auth, squatter.cookie)).toBeNull()
    expect(stored.sessions).toMatchObject([{ ssoProviderId: 'acme' }])
  })

  it('accountLinking off refuses to link an existing user', async () => {
    const zone = makeZone()
    const auth = Object.assign(
      accountAuth({
        account: { accountLinking: { enabled: false } },
        plugins: [organization(), sso({ domainVerification: { resolveTxt: zone.resolveTxt } }), completer],
      }),
      { zone },
    )
    await organizationWithProvider(auth as unknown as ProvisionAuth)
    await newUser(auth, { email: 'ada@acme.test' })
    expect((await complete(auth as unknown as ProvisionAuth, 'acme', profile('ada@acme.test'))).error).toBe('account_not_linked')
  })

  it('a provider deleted, moved to another domain or un-verified since the flow started signs nobody in', async () => {
    const auth = provisionAuth()
    const { owner } = await organizationWithProvider(auth)
    const { db, secrets, logger } = await auth.$context
    const stale = await readProvider({ secrets, logger }, (await findProvider(db, 'acme'))!)
    expect((await post(auth, 'update-provider', owner, { providerId: 'acme', domain: 'acme-two.test' })).status).toBe(200)
    expect((await complete(auth, 'acme', profile('ada@acme.test'), { provider: stale })).error).toBe('provider_changed')
    expect((await post(auth, 'delete-provider', owner, { providerId: 'acme' })).status).toBe(200)
    expect((await complete(auth, 'acme', profile('ada@acme.test'), { provider: stale })).error).toBe('provider_changed')
    expect((await rows(auth, 'ada@acme.test')).user).toBeNull()
  })
})

describe('what else refuses a session', () => {
  it('a banned user is refused and nothing is linked', async () => {
    const auth = provisionAuth()
    const { org } = await organizationWithProvider(auth)
    const banned = await newUser(auth, { email: 'ada@acme.test' })
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: banned.id }, update: { banned: true } })
    const landed = await complete(auth, 'acme', profile('ada@acme.test'))
    expect(landed).toMatchObject({ error: 'banned_user', cookie: '' })
    const stored = await rows(auth, 'ada@acme.test')
    expect(stored.accounts.map((account) => account.providerId)).toEqual(['credential'])
    expect(stored.members.filter((member) => member.organizationId === org.id)).toEqual([])
  })

  it('a revocation of the user\'s credentials committing during the sign-in refuses it, and rolls the link back', async () => {
    // A member hook stands in for a "sign out everywhere" landing between the read and the session.
    let bump = false
    const auth = provisionAuth({
      databaseHooks: {
        member: {
          create: {
            before: async (data, ctx) => {
              if (bump && ctx.db) await ctx.db.adapter.update({ model: 'user', where: { field: 'id', value: String(data.userId) }, update: { credentialVersion: 'revoked-now' } })
            },
          },
        },
      },
    })
    await organizationWithProvider(auth)
    const existing = await newUser(auth, { email: 'ada@acme.test' })
    bump = true
    const landed = await complete(auth, 'acme', profile('ada@acme.test'))
    expect(landed).toMatchObject({ error: 'credentials_changed', cookie: '' })
    const stored = await rows(auth, 'ada@acme.test')
    expect(stored.accounts.map((account) => account.providerId)).toEqual(['credential'])
    expect(stored.sessions.filter((session) => session.ssoProviderId !== null)).toEqual([])
    expect(stored.user?.id).toBe(existing.id)
  })

  it('errors land on errorURL, else on the error page', async () => {
    const auth = provisionAuth()
    await organizationWithProvider(auth, { verified: false })
    expect((await complete(auth, 'acme', profile('ada@acme.test'))).location).toBe('/sign-in?error=domain_not_verified')
    expect((await complete(auth, 'acme', profile('ada@acme.test'), { landing: { errorURL: null } })).location).toBe(
      'http://localhost:3000/api/auth/error?error=domain_not_verified',
    )
  })
})

describe('signing in again', () => {
  it('a user signed in by SSO can still sign in with a password they have', async () => {
    const auth = provisionAuth()
    await organizationWithProvider(auth)
    const existing: TestUser = await newUser(auth, { email: 'ada@acme.test' })
    await complete(auth, 'acme', profile('ada@acme.test'))
    expect((await signIn(auth, { email: existing.email })).response.status).toBe(200)
  })
})
