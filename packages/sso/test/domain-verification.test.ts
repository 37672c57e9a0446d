/**
 * Domain verification (docs/sso.md#verifying-a-domain) with an injected TXT
 * resolver: the token and its reuse, the record that must hold it, DNS
 * failures answered 502, a domain verified for one provider at a time across
 * organizations (also when two verify-domain calls race, on SQLite and on
 * the SQL servers when configured), a changed domain starting over, and a
 * token that never outlives its provider or its domain.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, describe, expect, it } from 'vitest'
import { signIn } from '../../core/test/accounts.js'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { challengeName } from '../src/domains/dns-challenge.js'
import { findProvider } from '../src/services/provider-secrets.js'
import { addMember, createOrg, get, newUser, oidcRegistration, post, ssoAuth, type SsoAuth, type TestUser } from './management-fixtures.js'

async function registered(auth: SsoAuth, providerId: string, domain = 'acme.test', owner?: TestUser) {
  const admin = owner ?? (await newUser(auth))
  const org = await createOrg(auth, admin)
  const answer = await post(auth, 'register', admin, oidcRegistration(org.id, providerId, domain))
  expect(answer.status).toBe(200)
  return { admin, org, token: answer.body.domainVerificationToken as string }
}

describe('request-domain-verification', () => {
  it('answers 201 with the active token again, a fresh one after seven days, 409 once verified', async () => {
    const auth = ssoAuth()
    const registration = await registered(auth, 'acme')
    const { token } = registration
    let admin = registration.admin
    const first = await post(auth, 'request-domain-verification', admin, { providerId: 'acme' })
    expect(first).toEqual({ status: 201, body: { domainVerificationToken: token } })
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/)

    auth.clock.advance(7 * 24 * 3600 * 1000 + 1000)
    // The session lapsed too: the admin signs in again.
    admin = { ...admin, cookie: (await signIn(auth, { email: admin.email })).cookie }
    const fresh = await post(auth, 'request-domain-verification', admin, { providerId: 'acme' })
    expect(fresh.status).toBe(201)
    expect(fresh.body.domainVerificationToken).not.toBe(token)
    // The expired token no longer verifies.
    auth.zone.publish(challengeName('acme.test'), token)
    expect((await post(auth, 'verify-domain', admin, { providerId: 'acme' })).status).toBe(502)
    auth.zone.publish(challengeName('acme.test'), fresh.body.domainVerificationToken)
    expect(await post(auth, 'verify-domain', admin, { providerId: 'acme' })).toEqual({ status: 204, body: null })
    expect(await post(auth, 'request-domain-verification', admin, { providerId: 'acme' })).toMatchObject({
      status: 409,
      body: { message: 'Domain has already been verified' },
    })
    expect((await get(auth, 'get-provider', admin, { providerId: 'acme' })).body.domainVerified).toBe(true)
    expect((await post(auth, 'request-domain-verification', admin, { providerId: 'missing' })).status).toBe(404)
  })
})

describe('verify-domain', () => {
  it('needs the token in the TXT record at _gatehouse-challenge.<domain>: wrong token, missing record and a DNS failure answer 502', async () => {
    const auth = ssoAuth()
    const { admin, token } = await registered(auth, 'acme')
    const verify = () => post(auth, 'verify-domain', admin, { providerId: 'acme' })

    const missing = await verify()
    expect(missing).toEqual({ status: 502, body: { code: 'DOMAIN_VERIFICATION_FAILED', message: 'Unable to verify domain ownership for acme.test. Try again later' } })
    expect(auth.zone.lookups).toEqual(['_gatehouse-challenge.acme.test'])

    auth.zone.publish('_gatehouse-challenge.acme.test', 'x'.repeat(32))
    auth.zone.publish('acme.test', token) // the apex is not the challenge name
    auth.zone.publish('_gatehouse-challenge.acme.test', `${token}-suffix`)
    expect((await verify()).status).toBe(502)

    auth.zone.down = true
    auth.zone.publish('_gatehouse-challenge.acme.test', token)
    expect((await verify()).status).toBe(502)
    auth.zone.down = false

    const { db } = await auth.$context
    expect((await findProvider(db, 'acme'))?.domainVerified).toBe(false)
    // A record split in chunks is joined, as TXT strings are; surrounding spaces are ignored.
    auth.zone.records.set('_gatehouse-challenge.acme.test', [['unrelated'], [` ${token.slice(0, 10)}`, `${token.slice(10)} `]])
    expect((await verify()).status).toBe(204)
    const row = await findProvider(db, 'acme')
    expect(row).toMatchObject({ domainVerified: true, verifiedDomain: 'acme.test' })
    expect(await db.count({ model: 'verification', where: { field: 'identifier', value: 'sso-domain:acme' } })).toBe(0)
    expect((await verify()).status).toBe(409)
  })

  it('without a pending token, 404', async () => {
    const auth = ssoAuth()
    const { admin } = await registered(auth, 'acme')
    const { db } = await auth.$context
    await db.deleteMany({ model: 'verification', where: { field: 'identifier', value: 'sso-domain:acme' } })
    expect(await post(auth, 'verify-domain', admin, { providerId: 'acme' })).toMatchObject({
      status: 404,
      body: { message: 'No pending domain verification exists' },
    })
  })

  it("refuses a domain already verified for another organization's provider, until that provider is deleted", async () => {
    const auth = ssoAuth()
    const first = await registered(auth, 'first', 'shared.test')
    const second = await registered(auth, 'second', 'shared.test')
    auth.zone.publish(challengeName('shared.test'), first.token)
    auth.zone.publish(challengeName('shared.test'), second.token)
    expect((await post(auth, 'verify-domain', first.admin, { providerId: 'first' })).status).toBe(204)
    expect(await post(auth, 'verify-domain', second.admin, { providerId: 'second' })).toMatchObject({
      status: 409,
      body: { code: 'DOMAIN_VERIFIED_FOR_ANOTHER_PROVIDER' },
    })
    // The first token is public in DNS: it verifies nothing for the second provider.
    auth.zone.records.set(challengeName('shared.test'), [[first.token]])
    expect((await post(auth, 'delete-provider', first.admin, { providerId: 'first' })).status).toBe(200)
    expect((await post(auth, 'verify-domain', second.admin, { providerId: 'second' })).status).toBe(502)
    auth.zone.publish(challengeName('shared.test'), second.token)
    expect((await post(auth, 'verify-domain', second.admin, { providerId: 'second' })).status).toBe(204)
  })

  it('a provider registered again under a deleted provider\'s id does not inherit its token', async () => {
    const auth = ssoAuth()
    const victim = await registered(auth, 'acme', 'victim.test')
    auth.zone.publish(challengeName('victim.test'), victim.token)
    // The victim deletes its provider before verifying; its token stays in its DNS.
    expect((await post(auth, 'delete-provider', victim.admin, { providerId: 'acme' })).status).toBe(200)
    const attacker = await registered(auth, 'acme', 'victim.test')
    expect(attacker.token).not.toBe(victim.token)
    expect((await post(auth, 'verify-domain', attacker.admin, { providerId: 'acme' })).status).toBe(502)
  })

  it('changing the domain un-verifies it and drops the old tokens; the new domain needs its own record', async () => {
    const auth = ssoAuth()
    const { admin, token } = await registered(auth, 'acme')
    auth.zone.publish(challengeName('acme.test'), token)
    expect((await post(auth, 'verify-domain', admin, { providerId: 'acme' })).status).toBe(204)
    const moved = await post(auth, 'update-provider', admin, { providerId: 'acme', domain: 'acme-two.test' })
    expect(moved.body).toMatchObject({ domain: 'acme-two.test', domainVerified: false })
    const { db } = await auth.$context
    expect(await findProvider(db, 'acme')).toMatchObject({ domainVerified: false, verifiedDomain: null })

    const next = await post(auth, 'request-domain-verification', admin, { providerId: 'acme' })
    expect(next.status).toBe(201)
    // A token for the old domain, even published at the new name, is not this one.
    auth.zone.publish(challengeName('acme-two.test'), token)
    expect((await post(auth, 'verify-domain', admin, { providerId: 'acme' })).status).toBe(502)
    auth.zone.publish(challengeName('acme-two.test'), next.body.domainVerificationToken)
    expect((await post(auth, 'verify-domain', admin, { providerId: 'acme' })).status).toBe(204)
    // Not changing the domain keeps it verified.
    expect((await post(auth, 'update-provider', admin, { providerId: 'acme', domain: 'ACME-two.test' })).body.domainVerified).toBe(true)
  })

  it('a member without sso: update may not ask for or run a verification', async () => {
    const auth = ssoAuth()
    const { org } = await registered(auth, 'acme')
    const member = await newUser(auth)
    await addMember(auth, org.id, member, 'member')
    expect((await post(auth, 'request-domain-verification', member, { providerId: 'acme' })).status).toBe(403)
    expect((await post(auth, 'verify-domain', member, { providerId: 'acme' })).status).toBe(403)
    expect(auth.zone.lookups).toEqual([])
  })
})

/** Two organizations, each with a provider of the same domain and its token published: both verify at once. */
async function raceTwoOrganizations(auth: SsoAuth, domain: string) {
  const a = await registered(auth, `a-${domain.replace(/\W/g, '')}`, domain)
  const b = await registered(auth, `b-${domain.replace(/\W/g, '')}`, domain)
  auth.zone.publish(challengeName(domain), a.token)
  auth.zone.publish(challengeName(domain), b.token)
  const replies = await Promise.all([
    post(auth, 'verify-domain', a.admin, { providerId: `a-${domain.replace(/\W/g, '')}` }),
    post(auth, 'verify-domain', b.admin, { providerId: `b-${domain.replace(/\W/g, '')}` }),
  ])
  const { db } = await auth.$context
  const verified = await db.count({ model: 'ssoProvider', where: [{ field: 'domain', value: domain }, { field: 'domainVerified', value: true }] })
  return { statuses: replies.map((answer) => answer.status).sort(), verified }
}

describe('two verify-domain calls for one domain in two organizations', () => {
  it('on the memory adapter exactly one wins', async () => {
    const auth = ssoAuth()
    for (let round = 0; round < 5; round++) {
      const result = await raceTwoOrganizations(auth, `race${round}.test`)
      expect(result).toEqual({ statuses: [204, 409], verified: 1 })
    }
  })

  for (const { dialect, enabled } of backendDialects) {
    describe.skipIf(!enabled)(`on ${dialect}`, () => {
      let backend: TestBackend | undefined
      let auth: SsoAuth | undefined
      afterAll(async () => {
        await auth?.close()
        await backend?.drop()
      })

      it('exactly one wins, and the unique index refuses a second verified row written behind the routes', async () => {
        backend = await createTestBackend(dialect)
        auth = ssoAuth({ core: { database: backend.factory } })
        expect((await runMigrations(auth)).applied).toBe(true)
        for (let round = 0; round < 5; round++) {
          const result = await raceTwoOrganizations(auth, `race${round}.test`)
          expect(result).toEqual({ statuses: [204, 409], verified: 1 })
        }
        const { db } = await auth.$context
        const loser = (await db.findMany<{ id: string; domainVerified: boolean }>({ model: 'ssoProvider', where: { field: 'domain', value: 'race0.test' } })).find(
          (row) => !row.domainVerified,
        )
        await expect(
          db.update({ model: 'ssoProvider', where: { field: 'id', value: String(loser?.id) }, update: { domainVerified: true, verifiedDomain: 'race0.test' } }),
        ).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' })
      })
    })
  }
})
