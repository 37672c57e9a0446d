/**
 * Rules decided under the organization's lock against the change racing them
 * (docs/organization.md#security), on the memory adapter, SQLite, and
 * PostgreSQL and MariaDB when configured. The route under test is held at a
 * gate (gated-adapter.ts) after its first reads, while the other request
 * commits; a rule decided on the rows read before the lock would pass here.
 *
 * - add-team-member racing the member's removal leaves no team membership;
 *   set-active-team needs membership of the organization, not only a row of
 *   the team.
 * - delete-role racing the role's assignment refuses, the role kept.
 * - cancel-invitation changes a pending invitation only: one accepted before
 *   (or while) it runs stays accepted.
 */
import { runMigrations, type AdapterFactory, type Row } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend } from '../../core/test/kysely-backends.js'
import { addMember, createOrg, newUser, orgAuth, post, sessionOf, type OrgAuth, type Reply } from './fixtures.js'
import { callOn, gatedFactory, type GateMatch } from './gated-adapter.js'

// Sign-ups hash a password per user: a trivial hasher keeps these tests about the races.
const fastPasswords = {
  hash: async (password: string) => `plain:${password}`,
  verify: async ({ hash, password }: { hash: string; password: string }) => hash === `plain:${password}`,
}

const backends: ReadonlyArray<{ name: string; enabled: boolean; open: () => Promise<{ factory: AdapterFactory; drop?: () => Promise<void> }> }> = [
  { name: 'memory', enabled: true, open: async () => ({ factory: memoryAdapter() }) },
  ...backendDialects.map(({ dialect, enabled }) => ({ name: dialect, enabled, open: () => createTestBackend(dialect) })),
]

const orEither =
  (...matches: GateMatch[]): GateMatch =>
  (method, args) =>
    matches.some((match) => match(method, args))

for (const backend of backends) {
  describe.skipIf(!backend.enabled)(`membership, roles and invitations under a racing change on ${backend.name}`, () => {
    let auth: OrgAuth | undefined
    let gate: ReturnType<typeof gatedFactory> | undefined
    let drop: (() => Promise<void>) | undefined

    beforeAll(async () => {
      const opened = await backend.open()
      drop = opened.drop
      gate = gatedFactory(opened.factory)
      auth = orgAuth(
        { teams: { enabled: true }, dynamicAccessControl: { enabled: true } },
        { database: gate.factory, emailAndPassword: { password: fastPasswords } },
      )
      if (backend.name !== 'memory') expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await drop?.()
    })

    function ready() {
      if (!auth || !gate) throw new Error('backend not ready')
      return { auth, gate }
    }

    /** Starts `request`, holds it at the first call `match` names, runs `meanwhile`, then lets it go on. */
    async function interleave(match: GateMatch | undefined, request: () => Promise<Reply>, meanwhile: () => Promise<void>): Promise<Reply> {
      const held = ready().gate.arm(match)
      const pending = request()
      await held.reached
      try {
        await meanwhile()
      } finally {
        held.release()
      }
      return pending
    }

    async function scene() {
      const { auth } = ready()
      const owner = await newUser(auth)
      const admin = await newUser(auth)
      const member = await newUser(auth)
      const org = await createOrg(auth, owner)
      await addMember(auth, org.id, admin, 'admin')
      const memberRow = await addMember(auth, org.id, member, 'member')
      const team = await post(auth, 'create-team', owner, { organizationId: org.id, name: 'Red' })
      expect(team.status).toBe(200)
      return { auth, org, owner, admin, member, memberId: String(memberRow.id), teamId: String(team.body.id) }
    }

    const count = async (model: string, where: Array<{ field: string; value: string }>) => (await ready().auth.$context).db.count({ model, where })

    it('add-team-member racing the removal of that member adds nothing, and answers not a member', async () => {
      const { auth, org, owner, admin, member, memberId, teamId } = await scene()
      const reply = await interleave(
        undefined,
        () => post(auth, 'add-team-member', admin, { teamId, userId: member.id }),
        async () => {
          expect((await post(auth, 'remove-member', owner, { organizationId: org.id, memberIdOrEmail: memberId })).status).toBe(200)
        },
      )
      expect(reply).toEqual({ status: 400, body: { code: 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION', message: 'User is not a member of the organization' } })
      expect(await count('teamMember', [{ field: 'teamId', value: teamId }, { field: 'userId', value: member.id }])).toBe(0)
    })

    it('set-active-team refuses a team membership left without the organization membership', async () => {
      const { auth, org, owner, member, memberId, teamId } = await scene()
      expect((await post(auth, 'remove-member', owner, { organizationId: org.id, memberIdOrEmail: memberId })).status).toBe(200)
      // As a racing add-team-member could once leave it, or a row written by hand.
      const { db } = await auth.$context
      await db.create({ model: 'teamMember', data: { teamId, userId: member.id } })
      expect(await post(auth, 'set-active-team', member, { teamId })).toEqual({
        status: 403,
        body: { code: 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION', message: 'You are not a member of this organization' },
      })
      expect(await sessionOf(auth, member)).toMatchObject({ activeOrganizationId: null, activeTeamId: null })
      // A member of both still activates the team, and its organization with it.
      await post(auth, 'add-team-member', owner, { teamId, userId: owner.id })
      expect((await post(auth, 'set-active-team', owner, { teamId })).status).toBe(200)
      expect(await sessionOf(auth, owner)).toMatchObject({ activeOrganizationId: org.id, activeTeamId: teamId })
    })

    it('delete-role racing the assignment of that role refuses, and the role stays', async () => {
      const { auth, org, owner, memberId } = await scene()
      expect((await post(auth, 'create-role', owner, { organizationId: org.id, role: 'reviewer', permission: { team: ['create'] } })).status).toBe(200)
      // Held where the holder check has been made and the delete is next, or at the transaction that makes both.
      const reply = await interleave(
        orEither(callOn('delete', 'organizationRole'), (method) => method === 'transaction'),
        () => post(auth, 'delete-role', owner, { organizationId: org.id, roleName: 'reviewer' }),
        async () => {
          expect((await post(auth, 'update-member-role', owner, { organizationId: org.id, memberId, role: 'reviewer' })).status).toBe(200)
        },
      )
      expect(reply).toEqual({ status: 400, body: { code: 'ROLE_IS_ASSIGNED_TO_MEMBERS', message: 'Cannot delete a role that is assigned to members' } })
      expect(await count('organizationRole', [{ field: 'organizationId', value: org.id }, { field: 'role', value: 'reviewer' }])).toBe(1)
    })

    it('cancel-invitation refuses an invitation already answered, and one accepted while it runs', async () => {
      const { auth, org, owner } = await scene()
      const invite = async () => {
        const guest = await newUser(auth)
        const sent = await post(auth, 'invite-member', owner, { organizationId: org.id, email: guest.email, role: 'member' })
        expect(sent.status).toBe(200)
        return { guest, invitationId: String(sent.body.id) }
      }
      const statusOf = async (id: string) =>
        (await (await auth.$context).db.findOne<Row & { status: string }>({ model: 'invitation', where: { field: 'id', value: id } }))?.status

      const accepted = await invite()
      expect((await post(auth, 'accept-invitation', accepted.guest, { invitationId: accepted.invitationId })).status).toBe(200)
      expect(await post(auth, 'cancel-invitation', owner, { invitationId: accepted.invitationId })).toEqual({
        status: 400,
        body: { code: 'INVITATION_NOT_FOUND', message: 'Invitation not found', invitationStatus: 'accepted' },
      })
      expect(await statusOf(accepted.invitationId)).toBe('accepted')

      const rejected = await invite()
      expect((await post(auth, 'reject-invitation', rejected.guest, { invitationId: rejected.invitationId })).status).toBe(200)
      expect((await post(auth, 'cancel-invitation', owner, { invitationId: rejected.invitationId })).body).toMatchObject({ invitationStatus: 'rejected' })
      expect(await statusOf(rejected.invitationId)).toBe('rejected')

      const canceled = await invite()
      expect(await post(auth, 'cancel-invitation', owner, { invitationId: canceled.invitationId })).toMatchObject({ status: 200, body: { status: 'canceled' } })
      expect((await post(auth, 'cancel-invitation', owner, { invitationId: canceled.invitationId })).body).toMatchObject({ invitationStatus: 'canceled' })

      const raced = await invite()
      const reply = await interleave(
        callOn('update', 'invitation'),
        () => post(auth, 'cancel-invitation', owner, { invitationId: raced.invitationId }),
        async () => {
          expect((await post(auth, 'accept-invitation', raced.guest, { invitationId: raced.invitationId })).status).toBe(200)
        },
      )
      expect(reply).toEqual({ status: 400, body: { code: 'FAILED_TO_RETRIEVE_INVITATION', message: 'Failed to retrieve invitation' } })
      expect(await statusOf(raced.invitationId)).toBe('accepted')
    })
  })
}
