import type { SessionWithUser, Store } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { requireTokenManager, tokenPermissions } from './token-access.js'

function session(fields: Record<string, unknown>): SessionWithUser {
  return { session: { id: 's', userId: 'u', ...fields }, user: { id: 'u' } } as unknown as SessionWithUser
}

function organizationPlugin(verdict: { ok: boolean; reason?: string }, asked: unknown[]) {
  return {
    id: 'organization',
    memberRules: { creatorRole: 'owner', teams: { enabled: true, maximumTeams: 10, maximumMembersPerTeam: 10, allowRemovingAllTeams: false } },
    provisionMember: () => Promise.resolve({ ok: false, reason: 'organization-not-found' }),
    authorize: (_db: Store, input: unknown) => {
      asked.push(input)
      return Promise.resolve(verdict)
    },
  }
}

describe('requireTokenManager', () => {
  it("asks the organization plugin for the token's own powers: members, and teams with groups on", async () => {
    const asked: unknown[] = []
    const ctx = { db: {} as Store, auth: { plugins: [organizationPlugin({ ok: true }, asked)] } }
    await requireTokenManager(ctx, { groups: true }, session({}), 'org1')
    await requireTokenManager(ctx, { groups: false }, session({}), 'org1')
    expect(asked).toEqual([
      { organizationId: 'org1', userId: 'u', permissions: tokenPermissions({ groups: true }) },
      { organizationId: 'org1', userId: 'u', permissions: { member: ['create', 'update', 'delete'] } },
    ])
    expect(tokenPermissions({ groups: true })).toEqual({ member: ['create', 'update', 'delete'], team: ['create', 'update', 'delete'] })
  })

  it("refuses an admin's impersonation session before asking anything", async () => {
    const asked: unknown[] = []
    const ctx = { db: {} as Store, auth: { plugins: [organizationPlugin({ ok: true }, asked)] } }
    await expect(requireTokenManager(ctx, { groups: true }, session({ impersonatedBy: 'admin-1' }), 'org1')).rejects.toMatchObject({ code: 'IMPERSONATION_NOT_ALLOWED', status: 403 })
    expect(asked).toEqual([])
  })

  it('tells a non-member from a member without the powers', async () => {
    const none = { db: {} as Store, auth: { plugins: [organizationPlugin({ ok: false, reason: 'not-member' }, [])] } }
    await expect(requireTokenManager(none, { groups: true }, session({}), 'org1')).rejects.toMatchObject({ code: 'YOU_ARE_NOT_A_MEMBER_OF_THE_ORGANIZATION' })
    const weak = { db: {} as Store, auth: { plugins: [organizationPlugin({ ok: false, reason: 'forbidden' }, [])] } }
    await expect(requireTokenManager(weak, { groups: true }, session({}), 'org1')).rejects.toMatchObject({ code: 'YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM_TOKENS' })
  })
})
