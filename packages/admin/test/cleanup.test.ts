/**
 * The admin plugin adds no cleanup target (docs/admin.md#cleanup): an
 * impersonation is an ordinary session row with a shorter expiry, which
 * core's `auth.api.cleanup()` deletes once it has passed, and an expired ban
 * is a field on the user, lifted at the next sign-in, never a row to delete.
 */
import { describe, expect, it } from 'vitest'
import { adminAuth, cast, post, sessionFor, sessionRows } from './fixtures.js'

const HOUR = 3600_000

describe('admin cleanup', () => {
  it('deletes an ended impersonation session, keeps the live sessions and the banned user', async () => {
    const auth = adminAuth()
    const { root, alice, bob } = await cast(auth)
    expect((await post(auth, 'ban-user', root, { userId: bob.id, banExpiresIn: 60 })).status).toBe(200)
    const impersonation = await post(auth, 'impersonate-user', root, { userId: alice.id })
    expect(impersonation.status).toBe(200)

    auth.clock.advance(HOUR - 1)
    expect((await auth.api.cleanup()).deleted.session).toBe(0)
    auth.clock.advance(1)
    expect((await auth.api.cleanup()).deleted.session).toBe(0)
    // Expired means strictly before now: one millisecond past the hour it goes.
    auth.clock.advance(1)
    expect((await auth.api.cleanup()).deleted.session).toBe(1)

    const rows = await sessionRows(auth, alice.id)
    expect(rows.map((row) => row.impersonatedBy)).toEqual([null])
    expect(await sessionRows(auth, root.id)).toHaveLength(1)
    expect((await sessionFor(auth, alice.cookie))?.user).toMatchObject({ id: alice.id })
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: bob.id } })).toMatchObject({ banned: true })
  })
})
