/**
 * The plugin on SQL backends: SQLite always, PostgreSQL and MariaDB when
 * configured (there parallel requests run on pooled connections and really
 * interleave). Migrations create the plugin's tables and unique indexes, the
 * routes work on them, and concurrent accepts of one invitation still make
 * one member. Each backend gets its own schema or database, dropped after.
 */
import { runMigrations } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { createOrg, get, newUser, orgAuth, post, type OrgAuth } from './fixtures.js'

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`organization plugin on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: OrgAuth | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = orgAuth({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } }, { database: backend.factory })
      const migration = await runMigrations(auth)
      expect(migration.applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    function ready(): { auth: OrgAuth } {
      if (!auth) throw new Error('backend not ready')
      return { auth }
    }

    it('migrations create every table and a second run has nothing to do', async () => {
      const { auth } = ready()
      const { adapter } = await auth.$context
      for (const model of ['organization', 'member', 'invitation', 'team', 'teamMember', 'organizationRole']) {
        expect(await adapter.count({ model })).toBe(0)
      }
      expect((await runMigrations(auth)).statements).toEqual([])
    })

    it('the unique indexes refuse a second member row and a second slug', async () => {
      const { auth } = ready()
      const owner = await newUser(auth)
      const org = await createOrg(auth, owner)
      const { adapter } = await auth.$context
      await expect(
        adapter.create({ model: 'member', data: { id: `m-${org.id}`, organizationId: org.id, userId: owner.id, role: 'member', teamId: null, createdAt: new Date() } }),
      ).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' })
      await expect(
        adapter.create({ model: 'organization', data: { id: `o-${org.id}`, name: 'Dup', slug: org.slug, logo: null, metadata: null, createdAt: new Date() } }),
      ).rejects.toMatchObject({ code: 'UNIQUE_VIOLATION' })
    })

    it('create, invite, twenty concurrent accepts, then delete', async () => {
      const { auth } = ready()
      const owner = await newUser(auth)
      const bo = await newUser(auth, { email: `bo-${dialect}@example.com` })
      const org = await createOrg(auth, owner)
      expect(org.members[0]).toMatchObject({ userId: owner.id, role: 'owner' })
      const full = await get(auth, 'get-full-organization', owner, { organizationId: org.id })
      expect(full.body).toMatchObject({ id: org.id, teams: [{ name: org.name }] })

      const sent = await post(auth, 'invite-member', owner, { organizationId: org.id, email: bo.email, role: 'admin' })
      expect(sent.status).toBe(200)
      const again = await post(auth, 'invite-member', owner, { organizationId: org.id, email: bo.email.toUpperCase(), role: 'admin' })
      expect(again.body.id).toBe(sent.body.id)

      const replies = await Promise.all(Array.from({ length: 20 }, () => post(auth, 'accept-invitation', bo, { invitationId: sent.body.id })))
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1)
      expect(replies.filter((reply) => reply.status === 400)).toHaveLength(19)
      const { db } = await auth.$context
      expect(await db.count({ model: 'member', where: { field: 'organizationId', value: org.id } })).toBe(2)
      expect(await db.findOne({ model: 'invitation', where: { field: 'id', value: sent.body.id } })).toMatchObject({ status: 'accepted' })

      const role = await post(auth, 'create-role', owner, { organizationId: org.id, role: 'auditor', permission: { team: ['update'] } })
      expect(role.body.permission).toEqual({ team: ['update'] })
      expect((await post(auth, 'has-permission', bo, { organizationId: org.id, permissions: { member: ['delete'] } })).body).toEqual({ success: true })

      expect((await post(auth, 'delete', owner, { organizationId: org.id })).status).toBe(200)
      for (const model of ['member', 'invitation', 'team', 'organizationRole']) {
        expect(await db.count({ model, where: { field: 'organizationId', value: org.id } })).toBe(0)
      }
    })
  })
}
