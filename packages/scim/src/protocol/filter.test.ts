import { describe, expect, it } from 'vitest'
import { ScimError } from '../errors.js'
import { ENTERPRISE_USER_SCHEMA } from './constants.js'
import { compileFilter, mentions, requiredEquality } from './filter.js'

const ada = {
  id: 'u1',
  externalId: 'Ext-1',
  userName: 'Ada.Lovelace@Acme.com',
  displayName: 'Ada Lovelace',
  title: '',
  active: true,
  emails: [
    { value: 'ada@acme.com', type: 'work', primary: true },
    { value: 'ada@home.example', type: 'home' },
  ],
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  [ENTERPRISE_USER_SCHEMA]: { department: 'Engines' },
  meta: { created: '2026-01-01T00:00:00.000Z', lastModified: '2026-03-01T12:00:00.000Z' },
}

function matches(text: string, resource: Record<string, unknown> = ada): boolean {
  return compileFilter('User', text).matches(resource)
}

function refusal(text: string): string {
  try {
    compileFilter('User', text)
  } catch (error) {
    if (error instanceof ScimError) return `${error.status} ${error.scimType}`
    throw error
  }
  return 'accepted'
}

describe('compileFilter', () => {
  it('compares userName, emails and displayName case-insensitively, ids and externalId exactly', () => {
    expect(matches('userName eq "ada.lovelace@acme.com"')).toBe(true)
    expect(matches('USERNAME EQ "ADA.LOVELACE@ACME.COM"')).toBe(true)
    expect(matches('emails.value eq "ADA@acme.com"')).toBe(true)
    expect(matches('displayName sw "ada"')).toBe(true)
    expect(matches('externalId eq "ext-1"')).toBe(false)
    expect(matches('externalId eq "Ext-1"')).toBe(true)
    expect(matches('id eq "U1"')).toBe(false)
  })

  it('takes core attributes with their schema URN, and the enterprise extension by its URN', () => {
    expect(matches('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "ada.lovelace@acme.com"')).toBe(true)
    expect(matches(`${ENTERPRISE_USER_SCHEMA}:department eq "engines"`)).toBe(true)
  })

  it('has every operator of RFC 7644 §3.4.2.2, with and, or, not and parentheses', () => {
    expect(matches('userName co "lovelace"')).toBe(true)
    expect(matches('userName ew "@acme.com"')).toBe(true)
    expect(matches('userName ne "someone"')).toBe(true)
    expect(matches('meta.lastModified gt "2026-02-01T00:00:00Z"')).toBe(true)
    expect(matches('meta.lastModified lt "2026-02-01T00:00:00Z"')).toBe(false)
    expect(matches('meta.created ge "2026-01-01T00:00:00Z" and meta.created le "2026-01-01T00:00:00Z"')).toBe(true)
    expect(matches('name.givenName eq "Bo" or name.familyName eq "lovelace"')).toBe(true)
    expect(matches('not (active eq true)')).toBe(false)
    expect(matches('(userName eq "x" or userName eq "y") and active eq true')).toBe(false)
    expect(matches('emails[type eq "work" and value co "@acme"]')).toBe(true)
    expect(matches('emails[type eq "home" and value co "@acme"]')).toBe(false)
  })

  it('pr is false for an empty string and an absent attribute; ne is true for an absent one', () => {
    expect(matches('title pr')).toBe(false)
    expect(matches('nickName pr')).toBe(false)
    expect(matches('emails pr')).toBe(true)
    expect(matches('nickName ne "x"')).toBe(true)
  })

  it('reads Entra ID\'s "False" as false when comparing a boolean', () => {
    expect(matches('active eq "True"')).toBe(true)
    expect(matches('active eq "False"')).toBe(false)
    expect(matches('active eq false', { ...ada, active: false })).toBe(true)
  })

  it('refuses what it cannot evaluate with 400 invalidFilter', () => {
    expect(refusal('userName eq')).toBe('400 invalidFilter')
    expect(refusal('unknownAttribute eq "x"')).toBe('400 invalidFilter')
    expect(refusal('urn:example:other:User:x eq "y"')).toBe('400 invalidFilter')
    expect(refusal('active gt true')).toBe('400 invalidFilter')
    expect(refusal('userName co 3')).toBe('400 invalidFilter')
    expect(refusal('emails[type eq "work" and x[y eq "z"]]')).toBe('400 invalidFilter')
    expect(refusal(`userName eq "${'a'.repeat(3000)}"`)).toBe('400 invalidFilter')
  })

  it('refuses a control character before the parser sees it: a quoted run of line breaks would backtrack for minutes', () => {
    const started = performance.now()
    expect(refusal(`userName eq "${'\n'.repeat(60)}`)).toBe('400 invalidFilter')
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('finds the equality a lookup can be narrowed by, alone or in an and', () => {
    const attributes = new Set(['username', 'externalid', 'id'])
    expect(requiredEquality(compileFilter('User', 'userName eq "Ada"').root, attributes)).toEqual({ attribute: 'username', value: 'Ada' })
    expect(requiredEquality(compileFilter('User', 'active eq true and externalId eq "e"').root, attributes)).toEqual({ attribute: 'externalid', value: 'e' })
    expect(requiredEquality(compileFilter('User', 'userName eq "a" or userName eq "b"').root, attributes)).toBeNull()
    expect(requiredEquality(compileFilter('User', 'userName co "a"').root, attributes)).toBeNull()
  })

  it('tells whether a group filter reads members', () => {
    expect(mentions(compileFilter('Group', 'id eq "g" and members[value eq "u"]').root, 'members')).toBe(true)
    expect(mentions(compileFilter('Group', 'displayName eq "Eng"').root, 'members')).toBe(false)
  })
})
