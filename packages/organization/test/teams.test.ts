import { describe, expect, it } from 'vitest'
import type { OrganizationOptions } from '../src/options.js'
import { get, newUser, orgAuth, post, roster, sessionOf, type OrgAuth } from './fixtures.js'

const notMember = { code: 'YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION', message: 'You are not a member of this organization' }
const teamNotFound = { code: 'TEAM_NOT_FOUND', message: 'Team not found' }

function teamsAuth(teams: NonNullable<OrganizationOptions['teams']> = {}) {
  return orgAuth({ teams: { enabled: true, ...teams } })
}

async function teamOf(auth: OrgAuth, caller: { cookie: string; id: string; email: string }, organizationId: string, name: string) {
  const reply = await post(auth, 'create-team', caller, { organizationId, name })
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body))
  return reply.body as { id: string; name: string; organizationId: string }
}

describe('teams switched off', () => {
  it('team routes answer 404 and the organization carries no teams', async () => {
    const auth = orgAuth()
    const r = await roster(auth)
    expect((await post(auth, 'create-team', r.owner, { organizationId: r.org.id, name: 'x' })).status).toBe(404)
    expect((await get(auth, 'list-teams', r.owner, { organizationId: r.org.id })).status).toBe(404)
  })
})

describe('create-team and list-teams', () => {
  it('an organization starts with a default team holding its creator', async () => {
    const auth = teamsAuth()
    const r = await roster(auth)
    const teams = await get(auth, 'list-teams', r.member, { organizationId: r.org.id })
    expect(teams.status).toBe(200)
    expect(teams.body).toMatchObject([{ name: r.org.name, organizationId: r.org.id }])
    const full = await get(auth, 'get-full-organization', r.owner, { organizationId: r.org.id })
    expect(full.body.teams).toHaveLength(1)
    const members = await get(auth, 'list-team-members', r.owner, { teamId: teams.body[0].id })
    expect(members.body).toMatchObject([{ userId: r.owner.id }])
  })

  it('owner and admin create teams; member, outsider and anonymous may not; maximumTeams holds', async () => {
    const auth = teamsAuth({ maximumTeams: 3 })
    const r = await roster(auth)
    const create = (caller: typeof r.owner | null, name: string) => post(auth, 'create-team', caller, { organizationId: r.org.id, name })
    expect(await create(r.owner, 'Red')).toMatchObject({ status: 200, body: { name: 'Red', organizationId: r.org.id } })
    expect(await create(r.admin, 'Blue')).toMatchObject({ status: 200, body: { name: 'Blue' } })
    expect(await create(r.member, 'Green')).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION', message: 'You are not allowed to create teams in this organization' },
    })
    expect(await create(r.outsider, 'Green')).toEqual({ status: 403, body: notMember })
    expect((await create(null, 'Green')).status).toBe(401)
    expect(await create(r.owner, 'Green')).toEqual({
      status: 403,
      body: { code: 'YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS', message: 'You have reached the maximum number of teams' },
    })
    expect((await create(r.owner, '')).status).toBe(400)
    expect(await get(auth, 'list-teams', r.outsider, { organizationId: r.org.id })).toEqual({ status: 403, body: notMember })
    expect((await get(auth, 'list-teams', null, { organizationId: r.org.id })).status).toBe(401)
  })
})

describe('POST /organization/update-team', () => {
  it('owner and admin rename; member, outsider and anonymous may not; only the name changes', async () => {
    const auth = teamsAuth()
    const r = await roster(auth)
    const team = await teamOf(auth, r.owner, r.org.id, 'Red')
    const update = (caller: typeof r.owner | null, name: string) => post(auth, 'update-team', caller, { teamId: team.id, data: { name, organizationId: 'other' } })
    expect(await update(r.owner, 'Crimson')).toMatchObject({ status: 200, body: { id: team.id, name: 'Crimson', organizationId: r.org.id } })
    expect(await update(r.admin, 'Scarlet')).toMatchObject({ status: 200, body: { name: 'Scarlet' } })
    expect(await update(r.member, 'Nope')).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM', message: 'You are not allowed to update this team' },
    })
    expect(await update(r.outsider, 'Nope')).toEqual({ status: 403, body: notMember })
    expect((await update(null, 'Nope')).status).toBe(401)
    expect(await post(auth, 'update-team', r.owner, { teamId: 'missing', data: { name: 'x' } })).toEqual({ status: 400, body: teamNotFound })
  })

  it('a team id of another organization is not found when an organization is named', async () => {
    const auth = teamsAuth()
    const r = await roster(auth)
    const mine = await teamOf(auth, r.owner, r.org.id, 'Red')
    const other = await post(auth, 'create', r.outsider, { name: 'Other', slug: 'other-org' })
    expect(await post(auth, 'update-team', r.outsider, { teamId: mine.id, organizationId: other.body.id, data: { name: 'x' } })).toEqual({
      status: 400,
      body: teamNotFound,
    })
  })
})

describe('POST /organization/remove-team', () => {
  it('owner and admin remove teams; member, outsider and anonymous may not', async () => {
    const auth = teamsAuth()
    const r = await roster(auth)
    const red = await teamOf(auth, r.owner, r.org.id, 'Red')
    const blue = await teamOf(auth, r.owner, r.org.id, 'Blue')
    const remove = (caller: typeof r.owner | null, teamId: string) => post(auth, 'remove-team', caller, { teamId, organizationId: r.org.id })
    expect(await remove(r.member, red.id)).toEqual({
      status: 403,
      body: { code: 'YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION', message: 'You are not allowed to delete teams in this organization' },
    })
    expect(await remove(r.outsider, red.id)).toEqual({ status: 403, body: notMember })
    expect((await remove(null, red.id)).status).toBe(401)

    await post(auth, 'add-team-member', r.owner, { teamId: red.id, userId: r.member.id })
    await post(auth, 'set-active-team', r.member, { teamId: red.id })
    expect((await sessionOf(auth, r.member))?.activeTeamId).toBe(red.id)
    expect(await remove(r.admin, red.id)).toEqual({ status: 200, body: { message: 'Team removed successfully.' } })
    expect(await remove(r.owner, blue.id)).toEqual({ status: 200, body: { message: 'Team removed successfully.' } })
    expect((await sessionOf(auth, r.member))?.activeTeamId).toBeNull()
    expect((await sessionOf(auth, r.member))?.activeOrganizationId).toBe(r.org.id)
    const { db } = await auth.$context
    expect(await db.count({ model: 'teamMember', where: { field: 'teamId', value: red.id } })).toBe(0)
    expect(await remove(r.owner, red.id)).toEqual({ status: 400, body: teamNotFound })
  })

  it('the last team stays unless allowRemovingAllTeams', async () => {
    const strict = teamsAuth()
    const r = await roster(strict)
    const [only] = (await get(strict, 'list-teams', r.owner, { organizationId: r.org.id })).body
    expect(await post(strict, 'remove-team', r.owner, { teamId: only.id })).toEqual({
      status: 400,
      body: { code: 'UNABLE_TO_REMOVE_LAST_TEAM', message: 'Unable to remove last team' },
    })
    const lax = teamsAuth({ allowRemovingAllTeams: true })
    const r2 = await roster(lax)
    const [last] = (await get(lax, 'list-teams', r2.owner, { organizationId: r2.org.id })).body
    expect((await post(lax, 'remove-team', r2.owner, { teamId: last.id })).status).toBe(200)
    expect((await get(lax, 'list-teams', r2.owner, { organizationId: r2.org.id })).body).toEqual([])
  })
})

describe('team members', () => {
  it('owner and admin add and remove organization members; the limit is 403', async () => {
    const auth = teamsAuth({ maximumMembersPerTeam: 2 })
    const r = await roster(auth)
    const red = await teamOf(auth, r.owner, r.org.id, 'Red')
    const add = (caller: typeof r.owner | null, userId: string) => post(auth, 'add-team-member', caller, { teamId: red.id, userId })
    expect(await add(r.member, r.member.id)).toMatchObject({ status: 403, body: { code: 'YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM' } })
    expect(await add(r.outsider, r.outsider.id)).toEqual({ status: 403, body: notMember })
    expect((await add(null, r.member.id)).status).toBe(401)
    expect(await add(r.admin, r.outsider.id)).toEqual({
      status: 400,
      body: { code: 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION', message: 'User is not a member of the organization' },
    })
    expect(await add(r.admin, r.member.id)).toMatchObject({ status: 200, body: { teamId: red.id, userId: r.member.id } })
    expect((await add(r.owner, r.member.id)).body.code).toBe('USER_IS_ALREADY_A_MEMBER_OF_THIS_TEAM')
    auth.clock.advance(1000)
    expect((await add(r.owner, r.admin.id)).status).toBe(200)
    expect(await add(r.owner, r.owner.id)).toEqual({
      status: 403,
      body: { code: 'TEAM_MEMBER_LIMIT_REACHED', message: 'Team member limit reached' },
    })
    const listed = await get(auth, 'list-team-members', r.member, { teamId: red.id })
    expect(listed.body.map((row: { userId: string }) => row.userId)).toEqual([r.member.id, r.admin.id])

    const remove = (caller: typeof r.owner, userId: string) => post(auth, 'remove-team-member', caller, { teamId: red.id, userId })
    expect((await remove(r.member, r.admin.id)).status).toBe(403)
    expect(await remove(r.owner, r.member.id)).toMatchObject({ status: 200, body: { userId: r.member.id } })
    expect(await remove(r.owner, r.member.id)).toEqual({
      status: 400,
      body: { code: 'USER_IS_NOT_A_MEMBER_OF_THE_TEAM', message: 'User is not a member of the team' },
    })
  })

  it('an invitation with a team puts the new member in it and makes it active', async () => {
    const auth = teamsAuth()
    const r = await roster(auth)
    const red = await teamOf(auth, r.owner, r.org.id, 'Red')
    const bo = await newUser(auth, { email: 'bo@example.com' })
    const sent = await post(auth, 'invite-member', r.owner, { organizationId: r.org.id, email: bo.email, role: 'member', teamId: red.id })
    expect(sent.body.teamId).toBe(red.id)
    const accepted = await post(auth, 'accept-invitation', bo, { invitationId: sent.body.id })
    expect(accepted.body.member).toMatchObject({ teamId: red.id })
    const session = await sessionOf(auth, bo)
    expect(session).toMatchObject({ activeOrganizationId: r.org.id, activeTeamId: red.id })
    const listed = await get(auth, 'list-team-members', bo, { teamId: red.id })
    expect(listed.body.map((row: { userId: string }) => row.userId)).toEqual([bo.id])
    // Leaving the organization drops the team membership and the active team.
    expect((await post(auth, 'leave', bo, { organizationId: r.org.id })).status).toBe(200)
    expect(await sessionOf(auth, bo)).toMatchObject({ activeOrganizationId: null, activeTeamId: null })
    const { db } = await auth.$context
    expect(await db.count({ model: 'teamMember', where: { field: 'userId', value: bo.id } })).toBe(0)
  })

  it('set-active-team needs membership of the team', async () => {
    const auth = teamsAuth()
    const r = await roster(auth)
    const red = await teamOf(auth, r.owner, r.org.id, 'Red')
    expect((await post(auth, 'set-active-team', r.member, { teamId: red.id })).body.code).toBe('USER_IS_NOT_A_MEMBER_OF_THE_TEAM')
    await post(auth, 'add-team-member', r.owner, { teamId: red.id, userId: r.member.id })
    expect(await post(auth, 'set-active-team', r.member, { teamId: red.id })).toMatchObject({ status: 200, body: { id: red.id } })
    expect(await post(auth, 'set-active-team', r.member, { teamId: null })).toEqual({ status: 200, body: null })
    expect(await sessionOf(auth, r.member)).toMatchObject({ activeOrganizationId: r.org.id, activeTeamId: null })
  })

  it('deleting the organization removes its teams and team memberships', async () => {
    const auth = teamsAuth()
    const r = await roster(auth)
    const red = await teamOf(auth, r.owner, r.org.id, 'Red')
    await post(auth, 'add-team-member', r.owner, { teamId: red.id, userId: r.member.id })
    expect((await post(auth, 'delete', r.owner, { organizationId: r.org.id })).status).toBe(200)
    const { db } = await auth.$context
    expect(await db.count({ model: 'team', where: { field: 'organizationId', value: r.org.id } })).toBe(0)
    expect(await db.count({ model: 'teamMember', where: { field: 'teamId', value: red.id } })).toBe(0)
  })
})
