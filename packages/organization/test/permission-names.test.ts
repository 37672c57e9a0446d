/**
 * has-permission with resource names every object inherits (`constructor`,
 * `toString`, ...): grants are read by own keys only, so such a name is a
 * resource nobody holds, answered `{ success: false }`, never a 500.
 */
import { describe, expect, it } from 'vitest'
import { orgAuth, post, roster } from './fixtures.js'

const INHERITED = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__']

describe('POST /organization/has-permission with inherited property names', () => {
  it('answers false for every role, the owner included, and keeps answering known resources', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    for (const resource of INHERITED) {
      for (const caller of [r.owner, r.admin, r.member, r.outsider]) {
        const reply = await post(auth, 'has-permission', caller, { organizationId: r.org.id, permissions: { [resource]: ['x'] } })
        expect(reply, `${resource}`).toEqual({ status: 200, body: { success: false } })
      }
      const mixed = await post(auth, 'has-permission', r.owner, { organizationId: r.org.id, permissions: { organization: ['delete'], [resource]: ['length'] } })
      expect(mixed).toEqual({ status: 200, body: { success: false } })
    }
    expect((await post(auth, 'has-permission', r.owner, { organizationId: r.org.id, permissions: { organization: ['delete'] } })).body).toEqual({ success: true })
  })
})
