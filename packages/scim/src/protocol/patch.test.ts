import { afterEach, describe, expect, it } from 'vitest'
import { ScimError } from '../errors.js'
import { ENTERPRISE_USER_SCHEMA, PATCH_OP_SCHEMA } from './constants.js'
import { applyPatch, canonicalPatchPath, readPatch } from './patch.js'
import { readScimBody } from './request-body.js'

function patch(operations: unknown[]) {
  return { schemas: [PATCH_OP_SCHEMA], Operations: operations }
}

function refusal(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    if (error instanceof ScimError) return `${error.status} ${error.scimType ?? error.code}`
    throw error
  }
  return 'accepted'
}

const user = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  id: 'u1',
  userName: 'ada@acme.com',
  active: true,
  emails: [{ value: 'ada@acme.com', type: 'work', primary: true }],
  name: { givenName: 'Ada', familyName: 'Lovelace' },
}

afterEach(() => {
  // Nothing here may ever have reached Object.prototype.
  expect(Object.prototype).not.toHaveProperty('polluted')
})

describe('readPatch: the forms directories send', () => {
  it("takes Entra ID's capitalised ops and its path-less value objects, one operation per key", () => {
    const operations = readPatch(
      'User',
      patch([
        { op: 'Replace', value: { active: 'False', 'emails[type eq "work"].value': 'ada@new.example', 'name.givenName': 'Augusta' } },
        { op: 'Add', path: 'Title', value: 'Countess' },
      ]),
      'u1',
    )
    expect(operations).toEqual([
      { op: 'replace', path: 'active', value: 'False' },
      { op: 'replace', path: 'emails[type eq "work"].value', value: 'ada@new.example' },
      { op: 'replace', path: 'name.givenName', value: 'Augusta' },
      { op: 'add', path: 'title', value: 'Countess' },
    ])
    const patched = applyPatch(user, operations)
    expect(patched).toMatchObject({ active: 'False', title: 'Countess', emails: [{ value: 'ada@new.example', type: 'work', primary: true }], name: { givenName: 'Augusta' } })
    // The library alone would have stored the filter as an attribute name.
    expect(Object.keys(patched).some((key) => key.includes('['))).toBe(false)
  })

  it("passes over Okta's echo of the resource's own id and refuses another id", () => {
    expect(readPatch('Group', patch([{ op: 'replace', value: { id: 'g1', displayName: 'Eng' } }]), 'g1')).toEqual([{ op: 'replace', path: 'displayName', value: 'Eng' }])
    expect(refusal(() => readPatch('Group', patch([{ op: 'replace', value: { id: 'other' } }]), 'g1'))).toBe('400 mutability')
  })

  it('writes enterprise attributes under the URN, the whole extension as one value too', () => {
    const operations = readPatch(
      'User',
      patch([
        { op: 'Add', path: `${ENTERPRISE_USER_SCHEMA}:manager`, value: 'm1' },
        { op: 'replace', path: ENTERPRISE_USER_SCHEMA, value: { department: 'Engines' } },
      ]),
      'u1',
    )
    expect(applyPatch(user, operations)[ENTERPRISE_USER_SCHEMA]).toEqual({ manager: 'm1', department: 'Engines' })
    const removed = applyPatch({ ...user, [ENTERPRISE_USER_SCHEMA]: { department: 'Engines' } }, readPatch('User', patch([{ op: 'remove', path: `${ENTERPRISE_USER_SCHEMA}:department` }]), 'u1'))
    expect(removed[ENTERPRISE_USER_SCHEMA]).toEqual({})
  })

  it("reduces a group's member values to { value }, so Entra's removal matches a member listed with its display", () => {
    const group = { schemas: [], id: 'g1', displayName: 'Eng', members: [{ value: 'u1' }, { value: 'u2' }] }
    const removed = applyPatch(group, readPatch('Group', patch([{ op: 'Remove', path: 'members', value: [{ $ref: null, value: 'u1', display: 'Ada' }] }]), 'g1'))
    expect(removed.members).toEqual([{ value: 'u2' }])
    const okta = applyPatch(group, readPatch('Group', patch([{ op: 'remove', path: 'members[value eq "u2"]' }]), 'g1'))
    expect(okta.members).toEqual([{ value: 'u1' }])
    const added = applyPatch(group, readPatch('Group', patch([{ op: 'add', path: 'members', value: [{ value: 'u3', display: 'Cy' }, { value: 'u1' }] }]), 'g1'))
    expect(added.members).toEqual([{ value: 'u1' }, { value: 'u2' }, { value: 'u3' }])
  })

  it('refuses read-only attributes, unknown ones, and a remove without a path', () => {
    expect(refusal(() => readPatch('User', patch([{ op: 'replace', path: 'id', value: 'x' }]), 'u1'))).toBe('400 mutability')
    expect(refusal(() => readPatch('User', patch([{ op: 'replace', path: 'meta.created', value: 'x' }]), 'u1'))).toBe('400 mutability')
    expect(refusal(() => readPatch('User', patch([{ op: 'add', path: 'groups', value: [] }]), 'u1'))).toBe('400 mutability')
    expect(refusal(() => readPatch('User', patch([{ op: 'replace', path: 'nosuch', value: 'x' }]), 'u1'))).toBe('400 invalidPath')
    expect(refusal(() => readPatch('User', patch([{ op: 'replace', path: 'name.nosuch', value: 'x' }]), 'u1'))).toBe('400 invalidPath')
    expect(refusal(() => readPatch('User', patch([{ op: 'remove' }]), 'u1'))).toBe('400 noTarget')
    expect(refusal(() => readPatch('User', patch([{ op: 'move', path: 'title' }]), 'u1'))).toBe('400 invalidSyntax')
    expect(refusal(() => readPatch('User', { Operations: [] }, 'u1'))).toBe('400 invalidSyntax')
  })

  it("adds a sub-attribute whose filter matches nothing, as Entra ID expects; replacing a whole unmatched value is noTarget", () => {
    // Entra sends replace emails[type eq "home"].value for a user with no home email yet (docs/scim.md#the-libraries).
    const operations = readPatch('User', patch([{ op: 'replace', path: 'emails[type eq "home"].value', value: 'x@y.z' }]), 'u1')
    expect(applyPatch(user, operations).emails).toEqual([{ value: 'ada@acme.com', type: 'work', primary: true }, { type: 'home', value: 'x@y.z' }])
    const whole = readPatch('User', patch([{ op: 'replace', path: 'emails[type eq "home"]', value: { value: 'x@y.z' } }]), 'u1')
    expect(refusal(() => applyPatch(user, whole))).toBe('400 noTarget')
  })

  it('prototype pollution through scim-patch: paths and value keys naming __proto__, constructor or prototype are refused', () => {
    expect(refusal(() => canonicalPatchPath('User', '__proto__.polluted'))).toBe('400 invalidPath')
    expect(refusal(() => canonicalPatchPath('User', 'constructor.prototype.polluted'))).toBe('400 invalidPath')
    expect(refusal(() => readPatch('User', patch([{ op: 'replace', value: { '__proto__.polluted': 'yes' } }]), 'u1'))).toBe('400 invalidPath')
    // A key inside a value: the library walks it as a path when it merges an object into an attribute.
    const body = `{"schemas":["${PATCH_OP_SCHEMA}"],"Operations":[{"op":"replace","path":"name","value":{"__proto__":{"polluted":"yes"}}}]}`
    expect(refusal(() => readScimBody({ body, contentType: 'application/scim+json', isServerCall: false }))).toBe('400 invalidPath')
    const nested = `{"schemas":["${PATCH_OP_SCHEMA}"],"Operations":[{"op":"replace","path":"name","value":{"constructor.prototype.polluted":"yes"}}]}`
    expect(refusal(() => readScimBody({ body: nested, contentType: 'application/json', isServerCall: false }))).toBe('400 invalidPath')
  })
})
