// @vitest-environment jsdom
/**
 * The client half against a real in-process server with the plugin: the
 * route table matches the server, every route's answer has the shape the
 * client expects, and the three hooks follow sign-in, sign-out and
 * organization switches, here and in another tab.
 */
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { createAuthClient, type CallResult } from '@gatehouse/react'
import { createElement, type ReactElement } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { BASE } from '../../core/test/helpers.js'
import { browser, type Browser } from '../../react/test/browser.js'
import { expectTableMatches, routeTour } from '../../react/test/routes.js'
import { organizationClient } from '../src/client.js'
import { organizationRoutes } from '../src/client/routes.js'
import { resolveOptions } from '../src/options.js'
import { organizationEndpoints } from '../src/routes/index.js'
import { orgAuth, type OrgAuth } from './fixtures.js'

afterEach(cleanup)

const PASSWORD = 'correct horse battery'
let counter = 0
const email = () => `client${++counter}@example.com`

function clientOf(auth: OrgAuth, tab: Browser) {
  return createAuthClient<typeof auth>({ baseURL: BASE, fetch: tab.fetch, plugins: [organizationClient()] })
}

type Client = ReturnType<typeof clientOf>

/** Marks a user's email verified, as invitations require. */
async function verify(auth: OrgAuth, userId: string) {
  const { db } = await auth.$context
  await db.update({ model: 'user', where: { field: 'id', value: userId }, update: { emailVerified: true } })
}

describe('organization route table', () => {
  it('matches the server: every routed endpoint, paths and methods, and not the server-only add-member', () => {
    const endpoints = organizationEndpoints(resolveOptions({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } }))
    expectTableMatches(organizationRoutes, endpoints, {})
    expect(Object.values(organizationRoutes.organization).map((route) => route.endpoint)).not.toContain('addMember')
  })
})

describe('every organization route answers the shape the client expects', () => {
  it('a tour with two users, teams and run-time roles', async () => {
    const auth = orgAuth({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } })
    const owner = clientOf(auth, browser(auth))
    const guest = clientOf(auth, browser(auth))
    const { ok, expectComplete } = routeTour()

    await owner.signUp.email({ name: 'Owner', email: email(), password: PASSWORD })
    const guestEmail = email()
    const guestUser = await ok('signUp.email', guest.signUp.email({ name: 'Guest', email: guestEmail, password: PASSWORD }))
    await verify(auth, guestUser.user.id)

    await ok('checkSlug', owner.organization.checkSlug({ slug: 'acme' }))
    const acme = await ok('create', owner.organization.create({ name: 'Acme', slug: 'acme', metadata: { plan: 'pro' } }))
    expect(acme.members).toHaveLength(1)
    await ok('update', owner.organization.update({ data: { name: 'Acme Inc' } }))
    await ok('list', owner.organization.list())
    await ok('setActive', owner.organization.setActive({ organizationSlug: 'acme' }))
    const full = await ok('getFullOrganization', owner.organization.getFullOrganization())
    expect(full?.teams).toHaveLength(1)
    await ok('getActiveMember', owner.organization.getActiveMember())
    await ok('hasPermission', owner.organization.hasPermission({ permissions: { organization: ['update'] } }))

    const invitation = await ok('inviteMember', owner.organization.inviteMember({ email: guestEmail, role: 'member' }))
    await ok('listInvitations', owner.organization.listInvitations())
    await ok('getInvitation', guest.organization.getInvitation({ id: invitation.id }))
    await ok('listUserInvitations', guest.organization.listUserInvitations())
    await ok('acceptInvitation', guest.organization.acceptInvitation({ invitationId: invitation.id }))
    const members = await ok('listMembers', owner.organization.listMembers({ limit: 10 }))
    expect(members.total).toBe(2)
    const guestMember = members.members.find((member) => member.userId === guestUser.user.id)
    await ok('updateMemberRole', owner.organization.updateMemberRole({ memberId: guestMember?.id ?? '', role: ['admin'] }))

    const beta = await ok('create', owner.organization.create({ name: 'Beta', slug: 'beta', keepCurrentActiveOrganization: true }))
    const second = await ok('inviteMember', owner.organization.inviteMember({ email: guestEmail, role: 'member', organizationId: beta.id }))
    await ok('rejectInvitation', guest.organization.rejectInvitation({ invitationId: second.id }))
    const third = await ok('inviteMember', owner.organization.inviteMember({ email: guestEmail, role: 'member', organizationId: beta.id }))
    await ok('cancelInvitation', owner.organization.cancelInvitation({ invitationId: third.id }))

    const team = await ok('createTeam', owner.organization.createTeam({ name: 'Blue' }))
    await ok('listTeams', owner.organization.listTeams())
    await ok('updateTeam', owner.organization.updateTeam({ teamId: team.id, data: { name: 'Navy' } }))
    await ok('addTeamMember', owner.organization.addTeamMember({ teamId: team.id, userId: guestUser.user.id }))
    await ok('listTeamMembers', owner.organization.listTeamMembers({ teamId: team.id }))
    await ok('setActiveTeam', guest.organization.setActiveTeam({ teamId: team.id }))
    await ok('removeTeamMember', owner.organization.removeTeamMember({ teamId: team.id, userId: guestUser.user.id }))
    await ok('removeTeam', owner.organization.removeTeam({ teamId: team.id }))

    await ok('createRole', owner.organization.createRole({ role: 'auditor', permission: { organization: ['update'] } }))
    await ok('listRoles', owner.organization.listRoles())
    await ok('updateRole', owner.organization.updateRole({ roleName: 'auditor', data: { permission: { member: ['create'] } } }))
    await ok('deleteRole', owner.organization.deleteRole({ roleName: 'auditor' }))

    await ok('leave', guest.organization.leave({ organizationId: acme.id }))
    const back = await ok('inviteMember', owner.organization.inviteMember({ email: guestEmail, role: 'member' }))
    await ok('acceptInvitation', guest.organization.acceptInvitation({ invitationId: back.id }))
    await ok('removeMember', owner.organization.removeMember({ memberIdOrEmail: guestEmail }))
    await ok('delete', owner.organization.delete({ organizationId: beta.id }))

    expectComplete(Object.keys(organizationRoutes.organization))
  })

  it('errors keep the plugin catalogue code', async () => {
    const auth = orgAuth()
    const client = clientOf(auth, browser(auth))
    await client.signUp.email({ name: 'Owner', email: email(), password: PASSWORD })
    const created = await client.organization.create({ name: 'Acme', slug: 'acme' })
    const { error } = await client.organization.leave({ organizationId: created.data?.id ?? '' })
    expect(error).toEqual({
      status: 400,
      code: 'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER',
      message: 'You cannot leave the organization as the only owner',
    })
  })
})

describe('hooks', () => {
  function Dashboard({ client, tab }: { client: Client; tab: string }): ReactElement {
    const active = client.useActiveOrganization()
    const list = client.useListOrganizations()
    const member = client.useActiveMember()
    const show = (state: { isPending: boolean }, text: string) => (state.isPending ? 'loading' : text)
    return createElement(
      'ul',
      null,
      createElement('li', { 'data-testid': `${tab}-active` }, show(active, active.data?.name ?? 'none')),
      // Sorted: the test clock stands still, so organizations created together have no creation order.
      createElement('li', { 'data-testid': `${tab}-list` }, show(list, (list.data ?? []).map((organization) => organization.slug).sort().join(',') || 'none')),
      createElement('li', { 'data-testid': `${tab}-role` }, show(member, member.data?.role ?? 'none')),
    )
  }

  const text = (id: string) => screen.getByTestId(id).textContent
  const view = (tab: string) => ({ active: text(`${tab}-active`), list: text(`${tab}-list`), role: text(`${tab}-role`) })

  it('follow sign-in, creation, switches, updates and sign-out, with one request per store per change', async () => {
    const auth = orgAuth()
    const tab = browser(auth)
    const client = clientOf(auth, tab)
    render(createElement('div', null, createElement(Dashboard, { client, tab: 'a' }), createElement(Dashboard, { client, tab: 'b' })))

    // Signed out: nothing to load beyond the session.
    await waitFor(() => expect(view('a')).toEqual({ active: 'none', list: 'none', role: 'none' }))
    expect(tab.count('/get-session')).toBe(1)
    expect(tab.requests.filter((request) => request.path.includes('/organization/'))).toEqual([])

    await act(() => client.signUp.email({ name: 'Owner', email: email(), password: PASSWORD }))
    await waitFor(() => expect(tab.count('/organization/list')).toBe(1))
    expect(view('a')).toEqual({ active: 'none', list: 'none', role: 'none' })

    // Creating makes the organization active: the session moves, and the stores that follow it reload.
    const acme = await act(() => client.organization.create({ name: 'Acme', slug: 'acme' }))
    await waitFor(() => expect(view('a')).toEqual({ active: 'Acme', list: 'acme', role: 'owner' }))
    expect(view('b')).toEqual(view('a'))
    expect(tab.count('/organization/get-full-organization')).toBe(1)
    expect(tab.count('/organization/get-active-member')).toBe(1)

    await act(() => client.organization.create({ name: 'Beta', slug: 'beta', keepCurrentActiveOrganization: true }))
    await waitFor(() => expect(view('a')).toEqual({ active: 'Acme', list: 'acme,beta', role: 'owner' }))
    expect(tab.count('/organization/get-full-organization')).toBe(1)

    await act(() => client.organization.setActive({ organizationSlug: 'beta' }))
    await waitFor(() => expect(view('a').active).toBe('Beta'))
    expect(tab.count('/organization/get-full-organization')).toBe(2)

    await act(() => client.organization.update({ data: { name: 'Beta Two' } }))
    await waitFor(() => expect(view('b').active).toBe('Beta Two'))

    await act(() => client.organization.delete({ organizationId: acme.data?.id ?? '' }))
    await waitFor(() => expect(view('a').list).toBe('beta'))

    await act(() => client.signOut())
    await waitFor(() => expect(view('a')).toEqual({ active: 'none', list: 'none', role: 'none' }))
    expect(view('b')).toEqual(view('a'))
  })

  /** The data of a call that must succeed. */
  async function must<T>(call: Promise<CallResult<T>>): Promise<T> {
    const { data, error } = await call
    if (error) throw new Error(`${error.code}: ${error.message}`)
    return data
  }

  /** Who the session says is signed in, as a header would show it. */
  const header = (client: Client) =>
    function Header(): ReactElement {
      const { data, isPending } = client.useSession()
      return createElement('span', { 'data-testid': 'user' }, isPending ? 'loading' : (data?.user.name ?? 'signed out'))
    }

  it.each(['before', 'after'])(
    'stores seeded by <InitialState> follow the session: a switch reloads them, sign-out empties them (session read %s them)',
    async (order) => {
      const auth = orgAuth()
      const tab = browser(auth)
      const before = clientOf(auth, tab)
      await before.signUp.email({ name: 'Owner', email: email(), password: PASSWORD })
      await before.organization.create({ name: 'Acme', slug: 'acme' })
      await before.organization.create({ name: 'Beta', slug: 'beta', keepCurrentActiveOrganization: true })
      // What the server rendered the page with.
      const initial = {
        session: await must(before.getSession()),
        listOrganizations: await must(before.organization.list()),
        activeOrganization: await must(before.organization.getFullOrganization()),
        activeMember: await must(before.organization.getActiveMember()),
      }

      // The page loads: a new client, the same browser.
      const client = clientOf(auth, tab)
      const requests = tab.requests.length
      const dashboard = createElement(Dashboard, { client, tab: 'page' })
      const session = createElement(header(client))
      render(createElement(client.InitialState, initial, ...(order === 'before' ? [session, dashboard] : [dashboard, session])))
      expect(view('page')).toEqual({ active: 'Acme', list: 'acme,beta', role: 'owner' })
      await act(() => Promise.resolve())
      expect(tab.requests.length).toBe(requests)

      await act(() => client.organization.setActive({ organizationSlug: 'beta' }))
      await waitFor(() => expect(view('page').active).toBe('Beta'))
      await act(() => client.signOut())
      await waitFor(() => expect(view('page')).toEqual({ active: 'none', list: 'none', role: 'none' }))
      expect(text('user')).toBe('signed out')
    },
  )

  /** The organization list, recording every text it renders. */
  const organizations = (client: Client, seen: string[]) =>
    function Organizations(): ReactElement {
      const { data, isPending } = client.useListOrganizations()
      const shown = isPending ? 'loading' : (data ?? []).map((organization) => organization.slug).join(',') || 'none'
      seen.push(shown)
      return createElement('span', { 'data-testid': 'list' }, shown)
    }

  it("a store read again after a user switch made while nothing read it shows the new user's data, never the old", async () => {
    const auth = orgAuth()
    const tab = browser(auth)
    const client = clientOf(auth, tab)
    await client.signUp.email({ name: 'Ada', email: email(), password: PASSWORD })
    await client.organization.create({ name: 'Acme', slug: 'acme' })
    const seen: string[] = []
    render(createElement(header(client)))
    const page = render(createElement(organizations(client, seen)))
    await waitFor(() => expect(text('list')).toBe('acme'))
    page.unmount()

    // Only the header reads the session now: Ada signs out and Grace signs up in this tab.
    await act(() => client.signOut())
    await act(() => client.signUp.email({ name: 'Grace', email: email(), password: PASSWORD }))
    await waitFor(() => expect(text('user')).toBe('Grace'))
    const listed = tab.count('/organization/list')
    seen.length = 0
    render(createElement(organizations(client, seen)))
    await waitFor(() => expect(text('list')).toBe('none'))
    expect(seen[0]).toBe('loading')
    expect(seen).not.toContain('acme')
    expect(tab.count('/organization/list')).toBe(listed + 1)
  })

  it("while read, a store goes back to pending on a user switch instead of showing the previous user's data", async () => {
    const auth = orgAuth()
    const tab = browser(auth)
    const client = clientOf(auth, tab)
    const graceEmail = email()
    await clientOf(auth, browser(auth)).signUp.email({ name: 'Grace', email: graceEmail, password: PASSWORD })
    await client.signUp.email({ name: 'Ada', email: email(), password: PASSWORD })
    await client.organization.create({ name: 'Acme', slug: 'acme' })
    const seen: string[] = []
    function Page(): ReactElement {
      const session = client.useSession()
      const list = client.useListOrganizations()
      const user = session.isPending ? 'loading' : (session.data?.user.name ?? 'signed out')
      const shown = list.isPending ? 'loading' : (list.data ?? []).map((organization) => organization.slug).join(',') || 'none'
      seen.push(`${user}:${shown}`)
      return createElement('span', { 'data-testid': 'page' }, `${user}:${shown}`)
    }
    render(createElement(Page))
    await waitFor(() => expect(text('page')).toBe('Ada:acme'))

    // Grace signs in over Ada's session, without signing out first.
    await act(() => client.signIn.email({ email: graceEmail, password: PASSWORD }))
    await waitFor(() => expect(text('page')).toBe('Grace:none'))
    expect(seen.filter((entry) => entry.startsWith('Grace:'))).toEqual(['Grace:loading', 'Grace:none'])
  })

  it('another tab follows an organization switch', async () => {
    const auth = orgAuth()
    const tab = browser(auth)
    const first = clientOf(auth, tab)
    const second = clientOf(auth, tab)
    await first.signUp.email({ name: 'Owner', email: email(), password: PASSWORD })
    await first.organization.create({ name: 'Acme', slug: 'acme' })
    await first.organization.create({ name: 'Beta', slug: 'beta', keepCurrentActiveOrganization: true })
    render(createElement(Dashboard, { client: second, tab: 'second' }))
    await waitFor(() => expect(view('second')).toEqual({ active: 'Acme', list: 'acme,beta', role: 'owner' }))

    await act(() => first.organization.setActive({ organizationSlug: 'beta' }))
    await waitFor(() => expect(view('second').active).toBe('Beta'))
    await act(() => first.organization.setActive({ organizationId: null }))
    await waitFor(() => expect(view('second')).toEqual({ active: 'none', list: 'acme,beta', role: 'none' }))
  })
})
