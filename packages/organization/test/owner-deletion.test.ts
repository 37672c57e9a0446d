/**
 * Deleting a user who is the only owner of organizations
 * (docs/organization.md#deleting-an-owner). The plugin's hook on the user
 * row runs inside whichever transaction deletes it: core's delete-user (and
 * its mailed link), the admin plugin's remove-user. By default the deletion
 * is refused with 400 naming the organizations that have other members;
 * `onLastOwnerDeleted` may instead transfer the creator role or delete the
 * organization. An organization whose only member is the user goes with them.
 */
import { memoryStorage, runMigrations, type Row } from '@gatehouse/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { admin } from '../../admin/src/plugin.js'
import { accountAuth, authed, PASSWORD } from '../../core/test/accounts.js'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { organization } from '../src/plugin.js'
import type { OrganizationOptions } from '../src/options.js'
import { addMember, createOrg, get, newUser, orgAuth, post, type AnyAuth, type TestUser } from './fixtures.js'

const refusal = (message: string) => ({ code: 'USER_IS_THE_ONLY_OWNER_OF_ORGANIZATIONS', message: `The user is the only owner of organizations that have other members: ${message}` })

function deletionAuth(options: OrganizationOptions = {}, core: Parameters<typeof orgAuth>[1] = {}) {
  const links: string[] = []
  const auth = orgAuth(
    { teams: { enabled: true }, ...options },
    {
      ...core,
      user: {
        deleteUser: {
          enabled: true,
          sendDeleteAccountVerification: ({ url }: { url: string }) => {
            links.push(url)
          },
        },
      },
    },
  )
  return Object.assign(auth, { links })
}

async function deleteSelf(auth: AnyAuth, user: TestUser) {
  const response = await auth.handler(authed('/api/auth/delete-user', user.cookie, { json: { password: PASSWORD } }))
  return { status: response.status, body: await response.json() }
}

async function count(auth: AnyAuth, model: string, field: string, value: string) {
  return (await auth.$context).db.count({ model, where: { field, value } })
}

async function userExists(auth: AnyAuth, user: TestUser) {
  return (await count(auth, 'user', 'id', user.id)) === 1
}

async function roleIn(auth: AnyAuth, organizationId: string, user: TestUser) {
  const { db } = await auth.$context
  const row = await db.findOne<Row & { role: string }>({
    model: 'member',
    where: [
      { field: 'organizationId', value: organizationId },
      { field: 'userId', value: user.id },
    ],
  })
  return row?.role ?? null
}

/** An owner of: `acme` and `beta` (with other members, no other owner), `solo` (alone), `shared` (a second owner). */
async function holdings(auth: AnyAuth, tag: string) {
  const owner = await newUser(auth)
  const deputy = await newUser(auth)
  const staff = await newUser(auth)
  const acme = await createOrg(auth, owner, `acme-${tag}`)
  await addMember(auth, acme.id, staff, 'member')
  await addMember(auth, acme.id, deputy, 'admin')
  const beta = await createOrg(auth, owner, `beta-${tag}`)
  await addMember(auth, beta.id, staff, 'member')
  const solo = await createOrg(auth, owner, `solo-${tag}`)
  const shared = await createOrg(auth, owner, `shared-${tag}`)
  await addMember(auth, shared.id, deputy, 'owner')
  return { owner, deputy, staff, acme, beta, solo, shared }
}

describe('deleting the only owner of organizations with other members', () => {
  it('core delete-user is refused with 400 naming the organizations, and nothing is deleted', async () => {
    const auth = deletionAuth()
    const h = await holdings(auth, 'core')
    const reply = await deleteSelf(auth, h.owner)
    expect(reply).toEqual({
      status: 400,
      body: {
        ...refusal('Org acme-core (acme-core), Org beta-core (beta-core)'),
        organizations: [
          { id: h.acme.id, name: h.acme.name, slug: h.acme.slug },
          { id: h.beta.id, name: h.beta.name, slug: h.beta.slug },
        ],
      },
    })
    expect(await userExists(auth, h.owner)).toBe(true)
    expect((await get(auth, 'list', h.owner)).body).toHaveLength(4)
    expect(await count(auth, 'organization', 'id', h.solo.id)).toBe(1)
    expect(await count(auth, 'team', 'organizationId', h.solo.id)).toBe(1)

    // Ownership handed over in acme: only beta is left in the way.
    const deputyRow = await (await auth.$context).db.findOne<Row & { id: string }>({
      model: 'member',
      where: [
        { field: 'organizationId', value: h.acme.id },
        { field: 'userId', value: h.deputy.id },
      ],
    })
    expect((await post(auth, 'update-member-role', h.owner, { organizationId: h.acme.id, memberId: deputyRow?.id, role: 'owner' })).status).toBe(200)
    expect((await deleteSelf(auth, h.owner)).body).toMatchObject(refusal('Org beta-core (beta-core)'))

    expect((await post(auth, 'delete', h.owner, { organizationId: h.beta.id })).status).toBe(200)
    expect(await deleteSelf(auth, h.owner)).toEqual({ status: 200, body: { success: true, message: 'User deleted' } })
    expect(await userExists(auth, h.owner)).toBe(false)
    // The organization nobody else could reach went with its owner; the others keep theirs.
    expect(await count(auth, 'organization', 'id', h.solo.id)).toBe(0)
    expect(await count(auth, 'team', 'organizationId', h.solo.id)).toBe(0)
    expect(await roleIn(auth, h.acme.id, h.deputy)).toBe('owner')
    expect(await roleIn(auth, h.shared.id, h.deputy)).toBe('owner')
    expect(await count(auth, 'member', 'organizationId', h.acme.id)).toBe(2)
  })

  it('the admin plugin’s remove-user is refused the same way', async () => {
    const auth = Object.assign(accountAuth({ plugins: [admin(), organization()] }), {})
    const root = await newUser(auth)
    await (await auth.$context).db.update({ model: 'user', where: { field: 'id', value: root.id }, update: { role: 'admin' } })
    const owner = await newUser(auth)
    const org = await createOrg(auth, owner, 'held')
    await addMember(auth, org.id, await newUser(auth), 'member')
    const solo = await createOrg(auth, owner, 'alone')

    const remove = async () => {
      const response = await auth.handler(authed('/api/auth/admin/remove-user', root.cookie, { json: { userId: owner.id } }))
      return { status: response.status, body: await response.json() }
    }
    expect(await remove()).toEqual({ status: 400, body: { ...refusal('Org held (held)'), organizations: [{ id: org.id, name: org.name, slug: org.slug }] } })
    expect(await userExists(auth, owner)).toBe(true)
    // Nothing was revoked: the owner is still signed in.
    expect((await get(auth, 'list', owner)).body).toHaveLength(2)
    expect(await count(auth, 'organization', 'id', solo.id)).toBe(1)

    expect((await post(auth, 'delete', owner, { organizationId: org.id })).status).toBe(200)
    expect(await remove()).toEqual({ status: 200, body: { success: true } })
    expect(await count(auth, 'organization', 'id', solo.id)).toBe(0)
  })

  it('the mailed deletion link sends the refusal to the application’s page and stays usable', async () => {
    const auth = deletionAuth()
    const h = await holdings(auth, 'link')
    const sent = await auth.handler(authed('/api/auth/delete-user', h.owner.cookie, { method: 'POST' }))
    expect(await sent.json()).toEqual({ success: true, message: 'Verification email sent' })
    const link = new URL(auth.links[0] as string)
    link.searchParams.set('callbackURL', '/goodbye')
    const open = () => auth.handler(authed(`${link.pathname}${link.search}`, h.owner.cookie))
    const refused = await open()
    expect(refused.status).toBe(302)
    expect(refused.headers.get('location')).toMatch(/\/goodbye\?error=USER_IS_THE_ONLY_OWNER_OF_ORGANIZATIONS$/)
    expect(await userExists(auth, h.owner)).toBe(true)

    for (const org of [h.acme, h.beta]) expect((await post(auth, 'delete', h.owner, { organizationId: org.id })).status).toBe(200)
    const deleted = await open()
    expect(deleted.status).toBe(302)
    expect(deleted.headers.get('location')).toMatch(/\/goodbye$/)
    expect(await userExists(auth, h.owner)).toBe(false)
  })
})

describe('onLastOwnerDeleted', () => {
  it("'transfer' makes the longest-standing admin owner, else the longest-standing member", async () => {
    const auth = deletionAuth({ onLastOwnerDeleted: 'transfer' })
    const h = await holdings(auth, 'transfer')
    // In acme the staff member joined before the admin: the admin is still preferred.
    expect(await deleteSelf(auth, h.owner)).toMatchObject({ status: 200 })
    expect(await roleIn(auth, h.acme.id, h.deputy)).toBe('owner,admin')
    expect(await roleIn(auth, h.acme.id, h.staff)).toBe('member')
    expect(await roleIn(auth, h.beta.id, h.staff)).toBe('owner,member')
    expect(await roleIn(auth, h.shared.id, h.deputy)).toBe('owner')
    expect(await count(auth, 'organization', 'id', h.solo.id)).toBe(0)
    // The new owner may do what owners do.
    expect((await post(auth, 'delete', h.staff, { organizationId: h.beta.id })).status).toBe(200)
  })

  it("'delete-organization' deletes it with its members, invitations and teams, and clears it where it was active", async () => {
    const auth = deletionAuth({ onLastOwnerDeleted: 'delete-organization' }, { secondaryStorage: memoryStorage() })
    const h = await holdings(auth, 'delete')
    expect((await post(auth, 'invite-member', h.owner, { organizationId: h.acme.id, email: 'later@example.com', role: 'member' })).status).toBe(200)
    expect((await post(auth, 'invite-member', h.deputy, { organizationId: h.acme.id, email: 'also@example.com', role: 'member' })).status).toBe(200)
    expect((await post(auth, 'set-active', h.staff, { organizationId: h.acme.id })).status).toBe(200)

    expect(await deleteSelf(auth, h.owner)).toMatchObject({ status: 200 })
    for (const org of [h.acme, h.beta, h.solo]) {
      expect(await count(auth, 'organization', 'id', org.id)).toBe(0)
      for (const model of ['member', 'invitation', 'team']) expect(await count(auth, model, 'organizationId', org.id)).toBe(0)
    }
    expect(await roleIn(auth, h.shared.id, h.deputy)).toBe('owner')
    // The staff member's session no longer names the deleted organization, in the database or in secondary storage.
    const session = await auth.handler(authed('/api/auth/get-session', h.staff.cookie))
    expect((await session.json()).session.activeOrganizationId).toBeNull()
  })

  it("'refuse' is the default and an owner who shares ownership is deleted at once", async () => {
    const auth = deletionAuth({ onLastOwnerDeleted: 'refuse' })
    const deputy = await newUser(auth)
    const owner = await newUser(auth)
    const org = await createOrg(auth, deputy)
    await addMember(auth, org.id, owner, 'owner')
    expect(await deleteSelf(auth, owner)).toMatchObject({ status: 200 })
    expect(await roleIn(auth, org.id, deputy)).toBe('owner')
    expect(await count(auth, 'member', 'organizationId', org.id)).toBe(1)
  })
})

for (const { dialect, enabled } of backendDialects) {
  describe.skipIf(!enabled)(`deleting the only owner on ${dialect}`, () => {
    let backend: TestBackend | undefined
    let auth: ReturnType<typeof deletionAuth> | undefined

    beforeAll(async () => {
      backend = await createTestBackend(dialect)
      auth = deletionAuth({}, { database: backend.factory })
      expect((await runMigrations(auth)).applied).toBe(true)
    })
    afterAll(async () => {
      await auth?.close()
      await backend?.drop()
    })

    it('refuses inside the transaction, rolls everything back, then deletes once the organizations are settled', async () => {
      if (!auth) throw new Error('backend not ready')
      const h = await holdings(auth, dialect)
      expect((await deleteSelf(auth, h.owner)).body).toMatchObject(refusal(`Org acme-${dialect} (acme-${dialect}), Org beta-${dialect} (beta-${dialect})`))
      expect(await userExists(auth, h.owner)).toBe(true)
      expect(await count(auth, 'organization', 'id', h.solo.id)).toBe(1)
      expect(await count(auth, 'session', 'userId', h.owner.id)).toBe(1)
      for (const org of [h.acme, h.beta]) expect((await post(auth, 'delete', h.owner, { organizationId: org.id })).status).toBe(200)
      expect(await deleteSelf(auth, h.owner)).toMatchObject({ status: 200 })
      expect(await userExists(auth, h.owner)).toBe(false)
      expect(await count(auth, 'organization', 'id', h.solo.id)).toBe(0)
      expect(await roleIn(auth, h.shared.id, h.deputy)).toBe('owner')
    })
  })
}
