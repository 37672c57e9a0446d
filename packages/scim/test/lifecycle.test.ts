/**
 * What the directory's changes do to the people (docs/scim.md#mapping):
 * deactivation ends a live session within the same request, and every
 * plugin's grants with it (core's onCredentialsRevoked, as the OpenID
 * Provider's tokens); a member of another organization loses only the
 * sessions inside this one; a suspended member is refused by the
 * organization's routes and by single sign-on; reactivation lets them back
 * in. DELETE ends the membership and its teams, and the account too when
 * SCIM made it and nothing else holds it. A member single sign-on made
 * meets its SCIM record by email: no second user. An email is verified only
 * under the organization's verified domain.
 */
import { definePlugin, type CredentialsRevoked, type Store } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { authed, signIn } from '../../core/test/accounts.js'
import { addMember, connectedOrg, createOrg, get, GROUP, newUser, PATCH_OP, post, scimAuth, USER, verifyDomain, type ScimAuth, type TestUser } from './fixtures.js'

const deactivate = { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] }
const reactivate = { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: true } }] }

async function sessionOf(auth: ScimAuth, cookie: string) {
  const response = await auth.handler(authed('/api/auth/get-session?disableCookieCache=true', cookie))
  return response.status === 200 ? ((await response.json()) as { user: { id: string } } | null) : null
}

/** A plugin standing in for one that issues grants (the OpenID Provider): it hears every revocation, in the revoking transaction. */
function grantIssuer() {
  const heard: Array<{ userId: string; reason: string; sessionsLeft: number }> = []
  const plugin = definePlugin({
    id: 'grant-issuer',
    onCredentialsRevoked: async (event: CredentialsRevoked) => {
      // Read through the revoking transaction: the sessions are already gone in it.
      const sessionsLeft = await event.db.count({ model: 'session', where: { field: 'userId', value: event.userId } })
      heard.push({ userId: event.userId, reason: event.reason, sessionsLeft })
    },
  })
  return { plugin, heard }
}

describe('deactivation', () => {
  it('ends the live session within the same request, with the grants of other plugins, and restores access when reactivated', async () => {
    const issuer = grantIssuer()
    const auth = scimAuth({ plugins: [issuer.plugin] })
    const { dir, org } = await connectedOrg(auth)
    await verifyDomain(auth, org.id, 'acme.example')
    const ada = await newUser(auth, { email: 'ada@acme.example' })
    const taken = await dir.post('/Users', { schemas: [USER], userName: 'ada@acme.example' })
    expect(taken.body.id).toBe(ada.id)
    const signedIn = await signIn(auth, { email: 'ada@acme.example' })
    const cookie = signedIn.cookie
    expect((await post(auth, 'set-active', { ...ada, cookie }, { organizationId: org.id })).status).toBe(200)
    expect((await sessionOf(auth, cookie))?.user.id).toBe(ada.id)

    const response = await dir.patch(`/Users/${ada.id}`, deactivate)
    expect(response.status).toBe(200)
    expect(response.body.active).toBe(false)
    // The very next request with the session finds it gone: nothing waited for a later sweep.
    expect(await sessionOf(auth, cookie)).toBeNull()
    expect(issuer.heard).toEqual([{ userId: ada.id, reason: 'sessions-revoked', sessionsLeft: 0 }])
    const { db } = await auth.$context
    expect(await db.count({ model: 'session', where: { field: 'userId', value: ada.id } })).toBe(0)

    // Signing in again works (the account is not banned) but the organization refuses the suspended member.
    const again = (await signIn(auth, { email: 'ada@acme.example' })).cookie
    const caller: TestUser = { ...ada, cookie: again }
    expect((await post(auth, 'set-active', caller, { organizationId: org.id })).status).toBe(403)
    expect((await post(auth, 'has-permission', caller, { organizationId: org.id, permissions: {} })).status).not.toBe(200)
    expect((await get(auth, 'list', caller)).body).toEqual([])

    expect((await dir.patch(`/Users/${ada.id}`, reactivate)).body.active).toBe(true)
    expect((await post(auth, 'set-active', caller, { organizationId: org.id })).status).toBe(200)
    expect((await get(auth, 'list', caller)).body).toHaveLength(1)
  })

  it('a member of another organization keeps the sessions that are not inside this one', async () => {
    const auth = scimAuth()
    const { dir, org } = await connectedOrg(auth, 'directory-org')
    const ada = await newUser(auth, { email: 'ada@multi.example' })
    await createOrg(auth, ada, 'adas-own')
    await addMember(auth, org.id, ada, 'member')
    const inside = (await signIn(auth, { email: 'ada@multi.example' })).cookie
    expect((await post(auth, 'set-active', { ...ada, cookie: inside }, { organizationId: org.id })).status).toBe(200)
    const outside = (await signIn(auth, { email: 'ada@multi.example' })).cookie

    expect((await dir.patch(`/Users/${ada.id}`, deactivate)).status).toBe(200)
    expect(await sessionOf(auth, inside)).toBeNull()
    expect((await sessionOf(auth, outside))?.user.id).toBe(ada.id)
    expect((await post(auth, 'set-active', { ...ada, cookie: outside }, { organizationId: org.id })).status).toBe(403)
  })

  it("refuses the organization's single sign-on for a suspended member (provisionMember answers member-suspended)", async () => {
    const auth = scimAuth()
    const { dir, org } = await connectedOrg(auth)
    const id = (await dir.post('/Users', { schemas: [USER], userName: 'sso@acme.example', active: false })).body.id as string
    const context = await auth.$context
    const plugin = context.plugins.find((candidate) => candidate.id === 'organization') as unknown as {
      provisionMember(db: Store, input: { organizationId: string; userId: string; role: string }): Promise<unknown>
    }
    const answer = await context.db.transaction((tx) => plugin.provisionMember(tx, { organizationId: org.id, userId: id, role: 'member' }))
    expect(answer).toEqual({ ok: false, reason: 'member-suspended' })
  })
})

describe('DELETE /Users/:id', () => {
  it('removes the membership and its teams, ends the sessions, and deletes the account SCIM made when nothing else holds it', async () => {
    const auth = scimAuth()
    const { dir, org } = await connectedOrg(auth)
    const made = (await dir.post('/Users', { schemas: [USER], userName: 'temp@acme.example' })).body.id as string
    const group = (await dir.post('/Groups', { schemas: [GROUP], displayName: 'Temps', members: [{ value: made }] })).body.id as string
    const { db } = await auth.$context
    expect(await db.count({ model: 'teamMember', where: { field: 'userId', value: made } })).toBe(1)
    expect((await dir.delete(`/Users/${made}`)).status).toBe(204)
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: made } })).toBeNull()
    expect(await db.count({ model: 'teamMember', where: { field: 'teamId', value: group } })).toBe(0)
    expect(await db.count({ model: 'scimUser', where: { field: 'organizationId', value: org.id } })).toBe(0)
  })

  it('keeps an account that also belongs to another organization, with its membership there', async () => {
    const auth = scimAuth()
    const a = await connectedOrg(auth, 'del-a')
    const b = await connectedOrg(auth, 'del-b')
    const id = (await a.dir.post('/Users', { schemas: [USER], userName: 'both@shared.example' })).body.id as string
    await verifyDomain(auth, b.org.id, 'shared.example')
    expect((await b.dir.post('/Users', { schemas: [USER], userName: 'both@shared.example' })).body.id).toBe(id)
    expect((await a.dir.delete(`/Users/${id}`)).status).toBe(204)
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: id } })).not.toBeNull()
    expect((await b.dir.get(`/Users/${id}`)).status).toBe(200)
    expect((await a.dir.get(`/Users/${id}`)).status).toBe(404)
  })
})

describe('single sign-on and SCIM meet on one user', () => {
  it('a member made by just-in-time sign-in is found by userName and taken over by POST, not duplicated', async () => {
    const auth = scimAuth()
    const { dir, org } = await connectedOrg(auth)
    // As the SSO plugin leaves it: a user with the IdP's email, a member of the provider's organization.
    const { db } = await auth.$context
    const jit = await db.create<{ id: string }>({ model: 'user', data: { name: 'Jit User', email: 'jit@acme.example', emailVerified: true } })
    await db.create({ model: 'member', data: { organizationId: org.id, userId: jit.id, role: 'member', teamId: null } })

    const lookup = await dir.get(`/Users?filter=${encodeURIComponent('userName eq "JIT@acme.example"')}`)
    expect(lookup.body.Resources).toEqual([
      expect.objectContaining({ id: jit.id, userName: 'jit@acme.example', displayName: 'Jit User', emails: [{ value: 'jit@acme.example', type: 'work', primary: true }], active: true }),
    ])
    const byEmail = await dir.get(`/Users?filter=${encodeURIComponent('emails[type eq "work"].value eq "jit@acme.example"')}`)
    expect(byEmail.body.totalResults).toBe(1)

    // A directory matching on another attribute POSTs instead: the record attaches to the same user.
    const posted = await dir.post('/Users', { schemas: [USER], userName: 'jit.user', emails: [{ value: 'jit@acme.example', primary: true }], externalId: 'okta-1' })
    expect(posted.status).toBe(201)
    expect(posted.body).toMatchObject({ id: jit.id, userName: 'jit.user', externalId: 'okta-1' })
    expect(await db.count({ model: 'user', where: { field: 'email', value: 'jit@acme.example' } })).toBe(1)
    expect(await db.count({ model: 'member', where: { field: 'organizationId', value: org.id } })).toBe(2)
    expect((await dir.post('/Users', { schemas: [USER], userName: 'jit2', emails: [{ value: 'jit@acme.example' }] })).status).toBe(409)
    expect((await dir.get(`/Users?filter=${encodeURIComponent('externalId eq "okta-1"')}`)).body.Resources[0].id).toBe(jit.id)
  })
})

describe('single sign-on and SCIM meet on one user, posted by its email', () => {
  it("a POST whose userName is the member's email attaches to it; an owner posted as inactive is refused", async () => {
    const auth = scimAuth()
    const { dir, org, owner } = await connectedOrg(auth)
    const { db } = await auth.$context
    const jit = await db.create<{ id: string }>({ model: 'user', data: { name: 'Jit', email: 'jit2@acme.example', emailVerified: true } })
    await db.create({ model: 'member', data: { organizationId: org.id, userId: jit.id, role: 'member', teamId: null } })
    const posted = await dir.post('/Users', { schemas: [USER], userName: 'Jit2@acme.example', active: true })
    expect(posted.status).toBe(201)
    expect(posted.body.id).toBe(jit.id)
    expect(await db.count({ model: 'user', where: { field: 'email', value: 'jit2@acme.example' } })).toBe(1)

    const inactiveOwner = await dir.post('/Users', { schemas: [USER], userName: owner.email, active: false })
    expect(inactiveOwner.status).toBe(403)
    expect((await dir.get(`/Users/${owner.id}`)).body.active).toBe(true)
    expect(await db.count({ model: 'scimUser', where: { field: 'userId', value: owner.id } })).toBe(0)
  })
})

describe('email verification', () => {
  it('is true for an address under a domain the organization verified, false elsewhere', async () => {
    const auth = scimAuth()
    const { dir, org } = await connectedOrg(auth)
    await verifyDomain(auth, org.id, 'verified.example')
    const { db } = await auth.$context
    const inside = (await dir.post('/Users', { schemas: [USER], userName: 'in@Verified.example' })).body.id as string
    const outside = (await dir.post('/Users', { schemas: [USER], userName: 'out@elsewhere.example' })).body.id as string
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: inside } })).toMatchObject({ email: 'in@verified.example', emailVerified: true })
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: outside } })).toMatchObject({ emailVerified: false })
    // Moving the address out of the verified domain unverifies it.
    await dir.patch(`/Users/${inside}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'emails', value: [{ value: 'moved@elsewhere.example', primary: true }] }] })
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: inside } })).toMatchObject({ email: 'moved@elsewhere.example', emailVerified: false })
  })

  it('without the SSO plugin no domain is verified', async () => {
    const auth = scimAuth({ ssoStandIn: false })
    const { dir } = await connectedOrg(auth)
    const id = (await dir.post('/Users', { schemas: [USER], userName: 'ada@acme.example' })).body.id as string
    const { db } = await auth.$context
    expect(await db.findOne({ model: 'user', where: { field: 'id', value: id } })).toMatchObject({ emailVerified: false })
  })
})
