/**
 * The owner rules of remove-member, leave and update-member-role against a
 * promotion and a departure that land between the route's first read of the
 * member and its transaction (docs/organization.md#security), on the memory
 * adapter, SQLite, and PostgreSQL and MariaDB when configured.
 *
 * The interleaving is forced, not hoped for: the adapter holds the next
 * transaction that starts until the test releases it, so the route under
 * test has read its rows and waits while the other requests commit. A rule
 * decided on the rows read before the lock would pass here; decided on the
 * rows as they are under the lock, it refuses.
 */
import { runMigrations, type AdapterFactory, type Row } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend } from '../../core/test/kysely-backends.js'
import { addMember, createOrg, newUser, orgAuth, post, type OrgAuth, type Reply } from './fixtures.js'
import { gatedFactory } from './gated-adapter.js'

// Sign-ups hash a password per user: a trivial hasher keeps these tests about the races.
const fastPasswords = {
  hash: async (password: string) => `plain:${password}`,
  verify: async ({ hash, password }: { hash: string; password: string }) => hash === `plain:${password}`,
}

const backends: ReadonlyArray<{ name: string; enabled: boolean; open: () => Promise<{ factory: AdapterFactory; drop?: () => Promise<void> }> }> = [
  { name: 'memory', enabled: true, open: async () => ({ factory: memoryAdapter() }) },
  ...backendDialects.map(({ dialect, enabled }) => ({ name: dialect, enabled, open: () => createTestBackend(dialect) })),
]

for (const backend of backends) {
  describe.skipIf(!backend.enabled)(`owner rules under a racing promotion on ${backend.name}`, () => {
    let auth: OrgAuth | undefined
    let gate: ReturnType<typeof gatedFactory> | undefined
    let drop: (() => Promise<void>) | undefined

    beforeAll(async () => {
      const opened = await backend.open()
      drop = opened.drop
      gate = gatedFactory(opened.factory)
      auth = orgAuth({}, { database: gate.factory, emailAndPassword: { password: fastPasswords } })
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

    /** Starts `request`, holds its transaction, runs `meanwhile`, then lets it go on. */
    async function interleave(request: () => Promise<Reply>, meanwhile: () => Promise<void>): Promise<Reply> {
      const { gate } = ready()
      const held = gate.arm()
      const pending = request()
      await held.reached
      try {
        await meanwhile()
      } finally {
        held.release()
      }
      return pending
    }

    async function owners(organizationId: string) {
      const { db } = await ready().auth.$context
      const members = await db.findMany<Row & { userId: string; role: string }>({ model: 'member', where: { field: 'organizationId', value: organizationId } })
      return members.filter((member) => member.role.split(',').includes('owner')).map((member) => member.userId)
    }

    /** An owner, an admin and a member; `promote` makes the member owner too, `promoteAndLeave` then has the owner leave. */
    async function scene() {
      const { auth } = ready()
      const owner = await newUser(auth)
      const admin = await newUser(auth)
      const member = await newUser(auth)
      const org = await createOrg(auth, owner)
      await addMember(auth, org.id, admin, 'admin')
      const memberRow = await addMember(auth, org.id, member, 'member')
      const promote = async () => {
        expect((await post(auth, 'update-member-role', owner, { organizationId: org.id, memberId: memberRow.id, role: 'owner' })).status).toBe(200)
      }
      const promoteAndLeave = async () => {
        await promote()
        expect((await post(auth, 'leave', owner, { organizationId: org.id })).status).toBe(200)
      }
      return { auth, org, owner, admin, member, memberId: String(memberRow.id), promote, promoteAndLeave }
    }

    it('remove-member: an admin who read the member before it became the last owner cannot remove it', async () => {
      const { auth, org, admin, member, memberId, promoteAndLeave } = await scene()
      const reply = await interleave(() => post(auth, 'remove-member', admin, { organizationId: org.id, memberIdOrEmail: memberId }), promoteAndLeave)
      expect(reply).toEqual({
        status: 403,
        body: { code: 'YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER', message: 'You are not allowed to delete this member' },
      })
      expect(await owners(org.id)).toEqual([member.id])
    })

    it('leave: a member who became the last owner while leaving stays', async () => {
      const { auth, org, member, promoteAndLeave } = await scene()
      const reply = await interleave(() => post(auth, 'leave', member, { organizationId: org.id }), promoteAndLeave)
      expect(reply).toEqual({
        status: 400,
        body: { code: 'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER', message: 'You cannot leave the organization as the only owner' },
      })
      expect(await owners(org.id)).toEqual([member.id])
    })

    it('update-member-role: an admin who read the member before its promotion cannot demote it from owner', async () => {
      const { auth, org, owner, admin, member, memberId, promote } = await scene()
      const reply = await interleave(() => post(auth, 'update-member-role', admin, { organizationId: org.id, memberId, role: 'member' }), promote)
      expect(reply).toEqual({ status: 403, body: { code: 'YOU_ARE_NOT_ALLOWED_TO_GRANT_THIS_ROLE', message: 'You are not allowed to grant this role' } })
      expect((await owners(org.id)).sort()).toEqual([owner.id, member.id].sort())
    })

    it('remove-member: an admin who read the member before its promotion cannot remove it', async () => {
      const { auth, org, owner, admin, member, memberId, promote } = await scene()
      const reply = await interleave(() => post(auth, 'remove-member', admin, { organizationId: org.id, memberIdOrEmail: memberId }), promote)
      expect(reply.status).toBe(403)
      expect((await owners(org.id)).sort()).toEqual([owner.id, member.id].sort())
    })
  })
}
