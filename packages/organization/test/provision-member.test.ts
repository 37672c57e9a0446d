/**
 * The plugin's `provisionMember`, which other plugins (single sign-on) call
 * inside their own transaction: an existing member keeps their row and role,
 * a new one gets the role asked for, within the membership limit and the
 * roles the organization defines (run-time ones included), and nothing is
 * written when it answers a refusal.
 */
import type { Store } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { createOrg, newUser, orgAuth, post, type OrgAuth } from './fixtures.js'

type Provision = (db: Store, input: { organizationId: string; userId: string; role: string | readonly string[] }) => Promise<unknown>

async function provisioner(auth: OrgAuth): Promise<{ db: Store; provision: Provision }> {
  const context = await auth.$context
  const plugin = context.plugins.find((candidate) => candidate.id === 'organization') as unknown as { provisionMember: Provision }
  return { db: context.db, provision: (db, input) => plugin.provisionMember(db, input) }
}

describe('organization plugin provisionMember', () => {
  it('adds a new member with the role asked for and answers an existing member unchanged', async () => {
    const auth = orgAuth()
    const owner = await newUser(auth)
    const ada = await newUser(auth)
    const org = await createOrg(auth, owner)
    const { db, provision } = await provisioner(auth)

    const added = await db.transaction((tx) => provision(tx, { organizationId: org.id, userId: ada.id, role: ['admin', 'member'] }))
    expect(added).toMatchObject({ ok: true, created: true, member: { userId: ada.id, role: 'admin,member' } })
    const again = await db.transaction((tx) => provision(tx, { organizationId: org.id, userId: owner.id, role: 'member' }))
    expect(again).toMatchObject({ ok: true, created: false, member: { userId: owner.id, role: 'owner' } })
  })

  it('refuses unknown roles, a full organization and a missing organization, writing nothing', async () => {
    const auth = orgAuth({ membershipLimit: 2, dynamicAccessControl: { enabled: true } })
    const owner = await newUser(auth)
    const [ada, cy] = [await newUser(auth), await newUser(auth)]
    const org = await createOrg(auth, owner)
    const { db, provision } = await provisioner(auth)

    expect(await db.transaction((tx) => provision(tx, { organizationId: org.id, userId: ada.id, role: 'auditor' }))).toEqual({ ok: false, reason: 'unknown-role' })
    expect(await db.transaction((tx) => provision(tx, { organizationId: org.id, userId: ada.id, role: [] }))).toEqual({ ok: false, reason: 'unknown-role' })
    // A run-time role of this organization counts.
    expect((await post(auth, 'create-role', owner, { organizationId: org.id, role: 'auditor', permission: { team: ['update'] } })).status).toBe(200)
    expect(await db.transaction((tx) => provision(tx, { organizationId: org.id, userId: ada.id, role: 'auditor' }))).toMatchObject({ ok: true, created: true })

    // The owner and ada: the limit of two is reached.
    const full = await db.transaction((tx) => provision(tx, { organizationId: org.id, userId: cy.id, role: 'member' }))
    expect(full).toEqual({ ok: false, reason: 'limit-reached' })
    expect(await db.transaction((tx) => provision(tx, { organizationId: 'missing', userId: cy.id, role: 'member' }))).toEqual({
      ok: false,
      reason: 'organization-not-found',
    })
    expect(await db.findOne({ model: 'member', where: [{ field: 'organizationId', value: org.id }, { field: 'userId', value: cy.id }] })).toBeNull()
  })
})
