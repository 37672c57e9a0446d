/**
 * Claim mapping (docs/sso.md#claim-mapping): standard claim names by
 * default, the provider's `mapping` over them, and what is made of values
 * providers send in other shapes.
 */
import { describe, expect, it } from 'vitest'
import { GOOGLE_ISSUER, mappedClaims, profileFromClaims, sharedIssuerRefusal } from '../src/oidc/claims.js'

describe('profileFromClaims', () => {
  it('reads the standard claims by default, keeping every claim in raw', () => {
    const claims = { sub: '00u1', email: ' ada@acme.test ', email_verified: true, name: 'Ada Lovelace', picture: 'https://img.test/a.png', groups: ['eng', 'ops'], tid: 't1' }
    expect(profileFromClaims(claims)).toEqual({
      ok: true,
      profile: {
        accountId: '00u1',
        email: 'ada@acme.test',
        emailVerified: true,
        name: 'Ada Lovelace',
        image: 'https://img.test/a.png',
        groups: ['eng', 'ops'],
        raw: claims,
      },
    })
  })

  it('follows the mapping: another id claim (Entra ID’s oid), email, name, image, groups', () => {
    const claims = { sub: 'pairwise-sub', oid: 'stable-oid', upn: 'ada@acme.test', verified: 'true', display: 'Ada', avatar: 'https://img.test/b.png', roles: 'admins' }
    const result = profileFromClaims(claims, { id: 'oid', email: 'upn', emailVerified: 'verified', name: 'display', image: 'avatar', groups: 'roles' })
    expect(result).toMatchObject({
      ok: true,
      profile: { accountId: 'stable-oid', email: 'ada@acme.test', emailVerified: true, name: 'Ada', image: 'https://img.test/b.png', groups: ['admins'] },
    })
  })

  it('a configured id claim that is missing is an error, never a fall back to sub', () => {
    expect(profileFromClaims({ sub: 's', email: 'a@b.test' }, { id: 'oid' })).toEqual({ ok: false, reason: 'id_not_found' })
    expect(profileFromClaims({ email: 'a@b.test' })).toEqual({ ok: false, reason: 'id_not_found' })
  })

  it('no email: email_not_found', () => {
    expect(profileFromClaims({ sub: 's', email: '' })).toEqual({ ok: false, reason: 'email_not_found' })
    expect(profileFromClaims({ sub: 's', email: 42 })).toEqual({ ok: false, reason: 'email_not_found' })
  })

  it('email_verified: booleans and their strings, else null (unknown); groups only as strings', () => {
    const base = { sub: 's', email: 'a@b.test' }
    expect(profileFromClaims({ ...base, email_verified: 'false' })).toMatchObject({ profile: { emailVerified: false } })
    expect(profileFromClaims({ ...base, email_verified: 1 })).toMatchObject({ profile: { emailVerified: null } })
    expect(profileFromClaims(base)).toMatchObject({ profile: { emailVerified: null, image: null } })
    expect(profileFromClaims({ ...base, groups: ['a', 7, '', 'b'] })).toMatchObject({ profile: { groups: ['a', 'b'] } })
    expect(profileFromClaims({ ...base, groups: { a: 1 } })).toMatchObject({ profile: {} })
    expect((profileFromClaims({ ...base, groups: { a: 1 } }) as { profile: object }).profile).not.toHaveProperty('groups')
  })

  it('a name from given and family names, else the preferred username, else the address', () => {
    expect(profileFromClaims({ sub: 's', email: 'ada@b.test', given_name: 'Ada', family_name: 'Lovelace' })).toMatchObject({ profile: { name: 'Ada Lovelace' } })
    expect(profileFromClaims({ sub: 's', email: 'ada@b.test', preferred_username: 'ada.l' })).toMatchObject({ profile: { name: 'ada.l' } })
    expect(profileFromClaims({ sub: 's', email: 'ada@b.test' })).toMatchObject({ profile: { name: 'ada' } })
  })
})

describe('mappedClaims', () => {
  it('asks for email, email_verified and name always; image, groups, id and extra fields only when mapped', () => {
    expect(mappedClaims()).toEqual(['email', 'email_verified', 'name'])
    expect(mappedClaims({ id: 'oid', groups: 'roles', extraFields: { department: 'dept' } })).toEqual(['email', 'email_verified', 'name', 'oid', 'roles', 'dept'])
  })
})

describe('sharedIssuerRefusal', () => {
  const profile = (claims: Record<string, unknown>) => {
    const mapped = profileFromClaims({ sub: '1', email: 'ada@acme.com', ...claims })
    if (!mapped.ok) throw new Error(mapped.reason)
    return mapped.profile
  }

  it('believes an IdP that says the address is not verified, and trusts one that says nothing', () => {
    expect(sharedIssuerRefusal('https://acme.okta.com', 'acme.com', profile({ email_verified: false }))).toBe('email_not_verified')
    expect(sharedIssuerRefusal('https://acme.okta.com', 'acme.com', profile({ email_verified: 'false' }))).toBe('email_not_verified')
    expect(sharedIssuerRefusal('https://acme.okta.com', 'acme.com', profile({}))).toBeNull()
    expect(sharedIssuerRefusal('https://acme.okta.com', 'acme.com', profile({ email_verified: true }))).toBeNull()
  })

  it("takes a Google account only with the organization's hosted domain (hd), never a consumer account at a work address", () => {
    expect(sharedIssuerRefusal(GOOGLE_ISSUER, 'acme.com', profile({ email_verified: true }))).toBe('hosted_domain_mismatch')
    expect(sharedIssuerRefusal(GOOGLE_ISSUER, 'acme.com', profile({ email_verified: true, hd: 'other.com' }))).toBe('hosted_domain_mismatch')
    expect(sharedIssuerRefusal(`${GOOGLE_ISSUER}/`, 'acme.com', profile({ email_verified: true }))).toBe('hosted_domain_mismatch')
    expect(sharedIssuerRefusal(GOOGLE_ISSUER, 'acme.com', profile({ email_verified: true, hd: 'ACME.com' }))).toBeNull()
  })
})
