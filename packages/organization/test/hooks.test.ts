import { AuthError } from '@gatehouse/core'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { OrganizationErrors } from '../src/errors.js'
import { organization } from '../src/plugin.js'
import type { Organization } from '../src/options.js'
import { authed } from '../../core/test/accounts.js'
import { get, newUser, orgAuth, post, roster } from './fixtures.js'

describe('organization hooks', () => {
  it('before-hooks change or veto writes of organizations, members, invitations and teams; after-hooks see committed rows', async () => {
    const events: string[] = []
    const auth = orgAuth({
      teams: { enabled: true },
      hooks: {
        organization: {
          create: {
            before: (data) => {
              if (data.slug === 'forbidden') throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION)
              return { data: { ...data, name: String(data.name).trim() } }
            },
            after: (row) => void events.push(`organization.create:${String(row.slug)}`),
          },
          update: { after: (row) => void events.push(`organization.update:${String(row.name)}`) },
          delete: { after: (row) => void events.push(`organization.delete:${String(row.slug)}`) },
        },
        member: {
          create: { after: (row) => void events.push(`member.create:${String(row.role)}`) },
          update: {
            before: (data) => {
              if (data.role === 'admin,member') throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER)
            },
          },
        },
        invitation: {
          create: {
            before: (data) => {
              if (String(data.email).endsWith('@blocked.test')) throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION)
            },
          },
          update: { after: (row) => void events.push(`invitation.update:${String(row.status)}`) },
        },
        team: {
          create: {
            before: (data) => {
              if (data.name === 'Nope') throw new AuthError(OrganizationErrors.YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION)
            },
          },
          delete: { after: (row) => void events.push(`team.delete:${String(row.name)}`) },
        },
      },
    })
    const ada = await newUser(auth)
    const created = await post(auth, 'create', ada, { name: '  Acme  ', slug: 'acme' })
    expect(created.body.name).toBe('Acme')
    const vetoed = await post(auth, 'create', ada, { name: 'No', slug: 'forbidden' })
    expect(vetoed.status).toBe(403)
    const { db } = await auth.$context
    expect(await db.count({ model: 'organization', where: { field: 'slug', value: 'forbidden' } })).toBe(0)
    expect(await db.count({ model: 'member', where: { field: 'userId', value: ada.id } })).toBe(1)

    const orgId = created.body.id
    expect((await post(auth, 'invite-member', ada, { organizationId: orgId, email: 'x@blocked.test', role: 'member' })).status).toBe(403)
    expect(await db.count({ model: 'invitation', where: { field: 'organizationId', value: orgId } })).toBe(0)
    expect((await post(auth, 'create-team', ada, { organizationId: orgId, name: 'Nope' })).status).toBe(403)
    const blue = await post(auth, 'create-team', ada, { organizationId: orgId, name: 'Blue' })

    const bo = await newUser(auth, { email: 'bo@hooks.test' })
    const invitation = await post(auth, 'invite-member', ada, { organizationId: orgId, email: bo.email, role: 'member' })
    const accepted = await post(auth, 'accept-invitation', bo, { invitationId: invitation.body.id })
    expect((await post(auth, 'update-member-role', ada, { organizationId: orgId, memberId: accepted.body.member.id, role: ['admin', 'member'] })).status).toBe(403)
    await post(auth, 'update', ada, { organizationId: orgId, data: { name: 'Acme 2' } })
    await post(auth, 'remove-team', ada, { teamId: blue.body.id })
    await post(auth, 'delete', ada, { organizationId: orgId })
    expect(events).toEqual([
      'organization.create:acme',
      'member.create:owner',
      'invitation.update:accepted',
      'member.create:member',
      'organization.update:Acme 2',
      'team.delete:Blue',
      'team.delete:Acme',
      'organization.delete:acme',
    ])
  })
})

describe('every routed endpoint', () => {
  it('answers 401 without a session', async () => {
    const auth = orgAuth({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } })
    const endpoints = Object.values(organization({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } }).endpoints)
    const routed = endpoints.filter((endpoint) => !endpoint.serverOnly)
    expect(routed.length).toBe(32)
    // A body and query valid for every route, so validation passes and the session check answers.
    const json = {
      organizationId: 'o', name: 'n', slug: 's', data: { permission: {} }, teamId: 't', userId: 'u', invitationId: 'i', memberId: 'm',
      memberIdOrEmail: 'm', role: 'member', email: 'a@example.com', permissions: { organization: ['update'] }, permission: {}, roleName: 'r',
    }
    const statuses: Record<string, number> = {}
    for (const endpoint of routed) {
      const method = typeof endpoint.method === 'string' ? endpoint.method : endpoint.method[0]
      const path = method === 'POST' ? `/api/auth${endpoint.path}` : `/api/auth${endpoint.path}?id=i&teamId=t`
      const response = await auth.handler(authed(path, '', method === 'POST' ? { json } : {}))
      statuses[endpoint.path] = response.status
    }
    expect(Object.entries(statuses).filter(([, status]) => status !== 401)).toEqual([])
  })

  it('a removed member loses access to every read at once', async () => {
    const auth = orgAuth({ teams: { enabled: true } })
    const r = await roster(auth)
    await post(auth, 'remove-member', r.owner, { organizationId: r.org.id, memberIdOrEmail: r.ids.member })
    for (const path of ['list-members', 'list-invitations', 'list-teams', 'get-full-organization']) {
      expect((await get(auth, path, r.member, { organizationId: r.org.id })).status).toBe(403)
    }
  })
})

describe('types', () => {
  it('api methods are typed from the plugin', () => {
    const auth = orgAuth()
    type Listed = Awaited<ReturnType<typeof auth.api.listOrganizations>>
    expectTypeOf<Listed[number]['slug']>().toEqualTypeOf<Organization['slug']>()
    type Created = Awaited<ReturnType<typeof auth.api.createOrganization>>
    expectTypeOf<Created['members'][number]['role']>().toEqualTypeOf<string>()
  })
})
