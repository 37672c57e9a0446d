/**
 * A suspended member (services/members.ts `isSuspended`): the row stays, with
 * its role and teams, but every permission check answers as for a
 * non-member, the organization leaves the member's list, and
 * `provisionMember` refuses the sign-in that would bring them back in. The
 * `member.suspendedAt` column belongs to the plugin that suspends (SCIM,
 * docs/scim.md#suspension); here the application's schema adds it.
 */
import type { Store } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { get, orgAuth, post, roster } from './fixtures.js'

type Provision = (db: Store, input: { organizationId: string; userId: string; role: string | readonly string[] }) => Promise<unknown>

function suspendableAuth() {
  return orgAuth({}, { schema: { member: { fields: { suspendedAt: { type: 'date', required: false } } } } })
}

describe('suspended members', () => {
  it('are refused every organization route a non-member is refused, and listed nowhere', async () => {
    const auth = suspendableAuth()
    const { org, owner, admin } = await roster(auth)
    const { db } = await auth.$context
    expect((await post(auth, 'has-permission', admin, { organizationId: org.id, permissions: { member: ['delete'] } })).body).toEqual({ success: true })

    await db.update({ model: 'member', where: [{ field: 'organizationId', value: org.id }, { field: 'userId', value: admin.id }], update: { suspendedAt: new Date() } })
    expect((await post(auth, 'has-permission', admin, { organizationId: org.id, permissions: { member: ['delete'] } })).body).toEqual({ success: false })
    expect((await post(auth, 'set-active', admin, { organizationId: org.id })).status).toBe(403)
    expect((await get(auth, 'get-full-organization', admin, { organizationId: org.id })).status).toBe(403)
    expect((await get(auth, 'list-members', admin, { organizationId: org.id })).status).toBe(403)
    expect((await post(auth, 'remove-member', admin, { organizationId: org.id, memberIdOrEmail: owner.email })).status).toBe(403)
    expect((await get(auth, 'list', admin)).body).toEqual([])
    // The owner still sees the suspended member, with the field set.
    const members = await get(auth, 'list-members', owner, { organizationId: org.id })
    expect(members.body.members.find((member: { userId: string }) => member.userId === admin.id)).toMatchObject({ role: 'admin', suspendedAt: expect.any(String) })

    await db.update({ model: 'member', where: [{ field: 'organizationId', value: org.id }, { field: 'userId', value: admin.id }], update: { suspendedAt: null } })
    expect((await post(auth, 'has-permission', admin, { organizationId: org.id, permissions: { member: ['delete'] } })).body).toEqual({ success: true })
    expect((await get(auth, 'list', admin)).body).toHaveLength(1)
  })

  it('provisionMember refuses a suspended member and writes nothing', async () => {
    const auth = suspendableAuth()
    const { org, member } = await roster(auth)
    const context = await auth.$context
    const plugin = context.plugins.find((candidate) => candidate.id === 'organization') as unknown as { provisionMember: Provision }
    const where = [{ field: 'organizationId', value: org.id }, { field: 'userId', value: member.id }]
    await context.db.update({ model: 'member', where, update: { suspendedAt: new Date() } })
    const answer = await context.db.transaction((tx) => plugin.provisionMember(tx, { organizationId: org.id, userId: member.id, role: 'admin' }))
    expect(answer).toEqual({ ok: false, reason: 'member-suspended' })
    expect(await context.db.findOne({ model: 'member', where })).toMatchObject({ role: 'member' })
  })

  it('the plugin object tells other plugins the creator role and the team rules', async () => {
    const auth = orgAuth({ creatorRole: 'founder', teams: { enabled: true, maximumTeams: 3 } })
    const { plugins } = await auth.$context
    const plugin = plugins.find((candidate) => candidate.id === 'organization') as unknown as { memberRules: unknown }
    expect(plugin.memberRules).toMatchObject({ creatorRole: 'founder', teams: { enabled: true, maximumTeams: 3, defaultTeam: true } })
  })
})
