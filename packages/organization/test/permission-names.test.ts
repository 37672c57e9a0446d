/**
 * has-permission with resource names every object inherits (`constructor`,
 * `toString`, ...): grants are read by own keys only, so such a name is a
 * resource nobody holds, answered `{ success: false }`, never a 500. A
 * request naming no resource, or `__proto__` (which validation would drop,
 * leaving `{}`, granted to everyone), is 400.
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

describe('POST /organization/has-permission asking about no resource', () => {
  it('answers 400 for an empty permissions object and for one naming __proto__, alone or beside a real resource', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    // JSON.parse keeps `__proto__` as an own key, as the server's body parser does.
    const proto = JSON.parse('{"__proto__":["x"]}') as Record<string, string[]>
    const protoAndReal = JSON.parse('{"__proto__":["x"],"organization":["delete"]}') as Record<string, string[]>
    for (const caller of [r.owner, r.member]) {
      for (const permissions of [{}, proto, protoAndReal]) {
        const reply = await post(auth, 'has-permission', caller, { organizationId: r.org.id, permissions })
        expect(reply.status, JSON.stringify(permissions)).toBe(400)
        expect(reply.body).not.toHaveProperty('success')
      }
    }
    // A valid request is answered as before.
    expect(await post(auth, 'has-permission', r.member, { organizationId: r.org.id, permissions: { organization: ['delete'] } })).toEqual({
      status: 200,
      body: { success: false },
    })
  })
})
