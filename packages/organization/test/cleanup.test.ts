/**
 * `auth.api.cleanup()` with the organization plugin (docs/organization.md#cleanup):
 * pending invitations that expired more than a week ago are deleted; one
 * that lapsed within the week, a live one, and answered ones (accepted,
 * canceled) stay. On memory, SQLite and, when configured, PostgreSQL and MariaDB.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { EXPIRED_INVITATION_GRACE_MS } from '../src/cleanup.js'
import { newUser, orgAuth, post, roster, type OrgAuth, type Roster } from './fixtures.js'

const DAY = 86_400_000

async function invite(auth: OrgAuth, r: Roster, email: string): Promise<string> {
  const reply = await post(auth, 'invite-member', r.owner, { organizationId: r.org.id, email, role: 'member' })
  if (reply.status !== 200) throw new Error(`invite failed: ${JSON.stringify(reply.body)}`)
  return reply.body.id as string
}

async function invitationIds(auth: OrgAuth): Promise<string[]> {
  const { db } = await auth.$context
  const rows = await db.findMany({ model: 'invitation' })
  return rows.map((row) => String(row.id)).sort()
}

const backends = [{ dialect: 'memory', enabled: true }, ...backendDialects] as const

for (const { dialect, enabled } of backends) {
  describe.skipIf(!enabled)(`organization cleanup on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: OrgAuth | undefined
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    it('deletes pending invitations a week past expiry, keeps recent, live and answered ones', async () => {
      backend = dialect === 'memory' ? undefined : await createTestBackend(dialect)
      // Sessions outlive the test's clock jumps, so the owner can still invite at the end.
      auth = orgAuth({ invitationExpiresIn: 3600 }, { session: { expiresIn: 60 * 86_400 }, ...(backend ? { database: backend.factory } : {}) })
      if (backend) await runMigrations(auth)
      const r = await roster(auth)
      const bo = await newUser(auth, { email: 'bo@example.com' })

      const lapsed = await invite(auth, r, 'lapsed@example.com')
      const accepted = await invite(auth, r, 'bo@example.com')
      expect((await post(auth, 'accept-invitation', bo, { invitationId: accepted })).status).toBe(200)
      const canceled = await invite(auth, r, 'canceled@example.com')
      expect((await post(auth, 'cancel-invitation', r.owner, { invitationId: canceled })).status).toBe(200)

      auth.clock.advance(8 * DAY)
      const recent = await invite(auth, r, 'recent@example.com')
      auth.clock.advance(DAY)
      const live = await invite(auth, r, 'live@example.com')

      // lapsed expired 9 days minus an hour ago; recent 1 day minus an hour ago.
      const first = await auth.api.cleanup()
      expect(first.deleted.invitation).toBe(1)
      expect(await invitationIds(auth)).toEqual([accepted, canceled, recent, live].sort())

      expect((await auth.api.cleanup()).deleted.invitation).toBe(0)

      // recent expired exactly a grace period ago: kept (strictly before); one millisecond later it goes.
      auth.clock.advance(EXPIRED_INVITATION_GRACE_MS - DAY + 3600_000)
      expect((await auth.api.cleanup()).deleted.invitation).toBe(0)
      auth.clock.advance(1)
      expect((await auth.api.cleanup()).deleted.invitation).toBe(1)
      expect(await invitationIds(auth)).toEqual([accepted, canceled, live].sort())
    })
  })
}
