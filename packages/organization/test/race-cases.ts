/**
 * Limits, the last-owner rule and single-use invitations under concurrency,
 * as cases any backend can run: the memory adapter and the Kysely SQL
 * backends here (limit-races.test.ts), the Drizzle adapter in
 * packages/drizzle. Each check and the write it guards run in one
 * transaction that first locks the organization's row (the creator's row for
 * the organization limit), so ten requests racing for the last places fill
 * exactly the places there are, and twenty accepts of one invitation make
 * one member.
 */
import { runMigrations, type AdapterFactory } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOrg, newUser, orgAuth, post, type OrgAuth, type Reply, type TestUser } from './fixtures.js'

/** A database to race on: `open` makes it, `drop` removes it; `migrates` says whether `runMigrations` creates its tables. */
export interface RaceBackend {
  readonly name: string
  readonly enabled: boolean
  readonly migrates: boolean
  open(): Promise<{ factory: AdapterFactory; drop?: () => Promise<void> }>
}

const RACERS = 10

const limits = {
  membershipLimit: 3,
  invitationLimit: 3,
  organizationLimit: 2,
  teams: { enabled: true, maximumTeams: 3, maximumMembersPerTeam: 2 },
  dynamicAccessControl: { enabled: true, maximumRolesPerOrganization: 2 },
} as const

// Sign-ups hash a password per user: a trivial hasher keeps these tests about the races.
const fastPasswords = {
  hash: async (password: string) => `plain:${password}`,
  verify: async ({ hash, password }: { hash: string; password: string }) => hash === `plain:${password}`,
}

function statuses(replies: readonly Reply[]): Record<number, number> {
  const counts: Record<number, number> = {}
  for (const { status } of replies) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

function messages(replies: readonly Reply[]): string[] {
  return [...new Set(replies.filter((reply) => reply.status !== 200).map((reply) => String(reply.body.message)))]
}

/**
 * Registers the race cases for one backend.
 *
 * @example
 * organizationRaces({ name: 'sqlite', enabled: true, migrates: true, open: async () => createTestBackend('sqlite') })
 */
export function organizationRaces(backend: RaceBackend): void {
  describe.skipIf(!backend.enabled)(`organization limits under concurrency on ${backend.name}`, () => {
    let auth: OrgAuth | undefined
    let drop: (() => Promise<void>) | undefined

    beforeAll(async () => {
      const opened = await backend.open()
      drop = opened.drop
      auth = orgAuth(limits, { database: opened.factory, emailAndPassword: { password: fastPasswords } })
      if (backend.migrates) expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await drop?.()
    })

    function ready(): OrgAuth {
      if (!auth) throw new Error('backend not ready')
      return auth
    }

    const users = (auth: OrgAuth, n: number): Promise<TestUser[]> => Promise.all(Array.from({ length: n }, () => newUser(auth)))
    const count = async (auth: OrgAuth, model: string, field: string, value: string) =>
      (await auth.$context).db.count({ model, where: { field, value } })

    it('ten concurrent add-member calls fill the membership limit and no more', async () => {
      const auth = ready()
      const owner = await newUser(auth)
      const org = await createOrg(auth, owner)
      const candidates = await users(auth, RACERS)
      const results = await Promise.allSettled(
        candidates.map((user) => auth.api.addMember({ body: { organizationId: org.id, userId: user.id, role: 'member' } })),
      )
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(limits.membershipLimit - 1)
      for (const result of results) {
        if (result.status === 'rejected') expect(result.reason).toMatchObject({ status: 403, message: 'Organization membership limit reached' })
      }
      expect(await count(auth, 'member', 'organizationId', org.id)).toBe(limits.membershipLimit)
    })

    it('ten users accepting their invitations at once fill the membership limit and no more', async () => {
      const auth = ready()
      const owner = await newUser(auth)
      const org = await createOrg(auth, owner)
      const invitees = await users(auth, limits.invitationLimit)
      const invitations: string[] = []
      for (const invitee of invitees) {
        const sent = await post(auth, 'invite-member', owner, { organizationId: org.id, email: invitee.email, role: 'member' })
        expect(sent.status).toBe(200)
        invitations.push(sent.body.id)
      }
      const replies = await Promise.all(invitees.map((invitee, index) => post(auth, 'accept-invitation', invitee, { invitationId: invitations[index] })))
      expect(statuses(replies)).toEqual({ 200: limits.membershipLimit - 1, 403: 1 })
      expect(messages(replies)).toEqual(['Organization membership limit reached'])
      expect(await count(auth, 'member', 'organizationId', org.id)).toBe(limits.membershipLimit)
      // The refused acceptance left its invitation pending: nothing half-done.
      const { db } = await auth.$context
      const pending = await db.count({ model: 'invitation', where: [{ field: 'organizationId', value: org.id }, { field: 'status', value: 'pending' }] })
      expect(pending).toBe(1)
    })

    it('twenty concurrent accepts of one invitation make one member', async () => {
      const auth = ready()
      const owner = await newUser(auth)
      const org = await createOrg(auth, owner)
      const invitee = await newUser(auth)
      const sent = await post(auth, 'invite-member', owner, { organizationId: org.id, email: invitee.email, role: 'member' })
      expect(sent.status).toBe(200)
      const replies = await Promise.all(Array.from({ length: 20 }, () => post(auth, 'accept-invitation', invitee, { invitationId: sent.body.id })))
      expect(statuses(replies)).toEqual({ 200: 1, 400: 19 })
      expect(await count(auth, 'member', 'userId', invitee.id)).toBe(1)
      const { db } = await auth.$context
      expect(await db.findOne({ model: 'invitation', where: { field: 'id', value: sent.body.id } })).toMatchObject({ status: 'accepted' })
    })

    it('ten concurrent invitations to different people stop at the invitation limit', async () => {
      const auth = ready()
      const owner = await newUser(auth)
      const org = await createOrg(auth, owner)
      const replies = await Promise.all(
        Array.from({ length: RACERS }, (_, index) =>
          post(auth, 'invite-member', owner, { organizationId: org.id, email: `racer${index}-${org.id}@example.com`, role: 'member' }),
        ),
      )
      expect(statuses(replies)).toEqual({ 200: limits.invitationLimit, 403: RACERS - limits.invitationLimit })
      expect(messages(replies)).toEqual(['Invitation limit reached'])
      expect(await count(auth, 'invitation', 'organizationId', org.id)).toBe(limits.invitationLimit)
    })

    it('ten concurrent create-team calls stop at maximumTeams', async () => {
      const auth = ready()
      const owner = await newUser(auth)
      const org = await createOrg(auth, owner)
      const room = limits.teams.maximumTeams - (await count(auth, 'team', 'organizationId', org.id))
      expect(room).toBe(limits.teams.maximumTeams - 1) // the default team
      const replies = await Promise.all(
        Array.from({ length: RACERS }, (_, index) => post(auth, 'create-team', owner, { organizationId: org.id, name: `Team ${index}` })),
      )
      expect(statuses(replies)).toEqual({ 200: room, 403: RACERS - room })
      expect(messages(replies)).toEqual(['You have reached the maximum number of teams'])
      expect(await count(auth, 'team', 'organizationId', org.id)).toBe(limits.teams.maximumTeams)
    })

    it('ten concurrent add-team-member calls stop at the team member limit', async () => {
      const auth = ready()
      const owner = await newUser(auth)
      const org = await createOrg(auth, owner)
      const team = await post(auth, 'create-team', owner, { organizationId: org.id, name: 'Racers' })
      const candidates = await users(auth, limits.membershipLimit - 1)
      const { db } = await auth.$context
      for (const user of candidates) await db.create({ model: 'member', data: { organizationId: org.id, userId: user.id, role: 'member', teamId: null } })
      // The owner and two members race for the team's two places, each twice over.
      const racers = [owner, ...candidates, owner, ...candidates]
      const replies = await Promise.all(racers.map((user) => post(auth, 'add-team-member', owner, { teamId: team.body.id, userId: user.id })))
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(limits.teams.maximumMembersPerTeam)
      expect(await count(auth, 'teamMember', 'teamId', team.body.id)).toBe(limits.teams.maximumMembersPerTeam)
    })

    it('ten concurrent create-role calls stop at maximumRolesPerOrganization', async () => {
      const auth = ready()
      const owner = await newUser(auth)
      const org = await createOrg(auth, owner)
      const replies = await Promise.all(
        Array.from({ length: RACERS }, (_, index) =>
          post(auth, 'create-role', owner, { organizationId: org.id, role: `role-${index}`, permission: { team: ['update'] } }),
        ),
      )
      const max = limits.dynamicAccessControl.maximumRolesPerOrganization
      expect(statuses(replies)).toEqual({ 200: max, 403: RACERS - max })
      expect(messages(replies)).toEqual(['You have reached the maximum number of roles'])
      expect(await count(auth, 'organizationRole', 'organizationId', org.id)).toBe(max)
    })

    it('ten concurrent creations by one user stop at the organization limit', async () => {
      const auth = ready()
      const owner = await newUser(auth)
      const replies = await Promise.all(
        Array.from({ length: RACERS }, (_, index) => post(auth, 'create', owner, { name: `Race ${index}`, slug: `race-${index}-${owner.id}` })),
      )
      expect(statuses(replies)).toEqual({ 200: limits.organizationLimit, 403: RACERS - limits.organizationLimit })
      expect(messages(replies)).toEqual(['You have reached the maximum number of organizations'])
      expect(await count(auth, 'member', 'userId', owner.id)).toBe(limits.organizationLimit)
    })

    it('two owners removing each other at once leave one owner', async () => {
      const auth = ready()
      const first = await newUser(auth)
      const second = await newUser(auth)
      const org = await createOrg(auth, first)
      const { db } = await auth.$context
      const secondRow = await db.create({ model: 'member', data: { organizationId: org.id, userId: second.id, role: 'owner', teamId: null } })
      const firstId = org.members[0]?.id
      const replies = await Promise.all([
        post(auth, 'remove-member', first, { organizationId: org.id, memberIdOrEmail: String(secondRow.id) }),
        post(auth, 'remove-member', second, { organizationId: org.id, memberIdOrEmail: firstId }),
      ])
      // The loser either passed its permission check in time and met the last-owner rule (400), or was already gone (403).
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1)
      expect(replies.filter((reply) => reply.status === 400 || reply.status === 403)).toHaveLength(1)
      expect(await count(auth, 'member', 'organizationId', org.id)).toBe(1)
    })

    it('two owners leaving at once, or demoting each other, keep one owner', async () => {
      const auth = ready()
      const first = await newUser(auth)
      const second = await newUser(auth)
      const org = await createOrg(auth, first)
      const { db } = await auth.$context
      await db.create({ model: 'member', data: { organizationId: org.id, userId: second.id, role: 'owner', teamId: null } })
      const leaving = await Promise.all([first, second].map((user) => post(auth, 'leave', user, { organizationId: org.id })))
      expect(statuses(leaving)).toEqual({ 200: 1, 400: 1 })
      expect(messages(leaving)).toEqual(['You cannot leave the organization as the only owner'])
      expect(await count(auth, 'member', 'organizationId', org.id)).toBe(1)

      const remaining = leaving[0]?.status === 200 ? second : first
      const other = await newUser(auth)
      const otherRow = await db.create({ model: 'member', data: { organizationId: org.id, userId: other.id, role: 'owner', teamId: null } })
      const remainingRow = await db.findOne({ model: 'member', where: [{ field: 'organizationId', value: org.id }, { field: 'userId', value: remaining.id }] })
      const demotions = await Promise.all([
        post(auth, 'update-member-role', remaining, { organizationId: org.id, memberId: String(otherRow.id), role: 'member' }),
        post(auth, 'update-member-role', other, { organizationId: org.id, memberId: String(remainingRow?.id), role: 'member' }),
      ])
      expect(demotions.filter((reply) => reply.status === 200)).toHaveLength(1)
      expect(demotions.filter((reply) => reply.status === 400 || reply.status === 403)).toHaveLength(1)
      const owners = await db.count({ model: 'member', where: [{ field: 'organizationId', value: org.id }, { field: 'role', value: 'owner' }] })
      expect(owners).toBe(1)
    })
  })
}
