/**
 * @module
 * What a directory's group writes do (docs/scim.md#groups): a group is a
 * team of the token's organization, its members the team's members. Every
 * write runs under the organization's lock (user-writes.ts `inOrganization`)
 * and keeps the organization plugin's team rules: `maximumTeams`,
 * `maximumMembersPerTeam`, and the last team stays unless
 * `allowRemovingAllTeams`. A member named by id must be a member of this
 * organization (400 `invalidValue` otherwise, whether the id is unknown or
 * another organization's: the answer tells nothing about other
 * organizations). POST takes over a team of the same name the directory
 * has not claimed yet (no duplicate of a team made in the app); one already
 * claimed is 409. Roles follow group membership when `groupRoles` is set (roles.ts).
 */
import type { Row, Store } from '@gatehouse/core'
import { ScimError, ScimErrors } from '../errors.js'
import type { ScimGroupRow } from '../schema.js'
import type { GroupInput } from './group-input.js'
import { findGroupView, teamMemberIds, type GroupView } from './group-resource.js'
import { organizationAuthority } from './organization.js'
import { syncRoles } from './roles.js'
import { inOrganization, type WriteContext } from './user-writes.js'

function taken(what: string): ScimError {
  return new ScimError(ScimErrors.UNIQUENESS, { message: `${what} is already taken` })
}

/** 409 when another team of the organization has the name, or another group the externalId. */
async function checkUnique(tx: Store, context: WriteContext, input: GroupInput, teamId: string | null): Promise<Row | null> {
  const inOrg = { field: 'organizationId', value: context.organizationId }
  const teams = await tx.findMany<Row & { id: string; name: string }>({ model: 'team', where: inOrg })
  const sameName = teams.find((team) => team.id !== teamId && team.name.toLowerCase() === input.displayName.toLowerCase()) ?? null
  if (input.externalId !== null) {
    const byExternalId = await tx.findOne<ScimGroupRow>({ model: 'scimGroup', where: [inOrg, { field: 'externalId', value: input.externalId }] })
    if (byExternalId && byExternalId.teamId !== teamId) throw taken('externalId')
  }
  return sameName
}

/** 400 unless every id is a member of the organization. */
async function checkMembers(tx: Store, context: WriteContext, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return
  const found = await tx.count({
    model: 'member',
    where: [
      { field: 'organizationId', value: context.organizationId },
      { field: 'userId', operator: 'in', value: [...userIds] },
    ],
  })
  if (found !== userIds.length) throw new ScimError(ScimErrors.INVALID_VALUE, { message: 'A member is not a User of this organization' })
}

/**
 * POST /Groups. Answers the team id.
 *
 * @example
 * const teamId = await createGroup(context, readGroupInput(body))
 */
export async function createGroup(context: WriteContext, input: GroupInput): Promise<string> {
  const { rules } = organizationAuthority(context.auth)
  return inOrganization(context, async (tx) => {
    const sameName = await checkUnique(tx, context, input, null)
    let teamId: string
    if (sameName) {
      const claimed = await tx.findOne({ model: 'scimGroup', where: { field: 'teamId', value: String(sameName.id) } })
      if (claimed) throw taken('displayName')
      teamId = String(sameName.id)
    } else {
      const count = await tx.count({ model: 'team', where: { field: 'organizationId', value: context.organizationId } })
      if (count >= rules.teams.maximumTeams) throw new ScimError(ScimErrors.FORBIDDEN, { message: 'The organization has reached its number of teams' })
      const team = await tx.create<Row & { id: string }>({ model: 'team', data: { name: input.displayName, organizationId: context.organizationId } })
      teamId = team.id
    }
    await tx.create({ model: 'scimGroup', data: { organizationId: context.organizationId, teamId, externalId: input.externalId } })
    // A team taken over keeps the members it had: the directory's later writes decide from there.
    const before = sameName ? await teamMemberIds(tx, teamId) : []
    await setMembers(tx, context, teamId, [...new Set([...before, ...input.members])], before)
    return teamId
  })
}

/**
 * PUT /Groups/:id and PATCH /Groups/:id: the team becomes what `build` makes
 * of the group as it is under the lock, members read (the body of a PUT; the
 * patched group of a PATCH), after its `If-Match` check. Answers false when
 * the team is gone.
 *
 * @example
 * await replaceGroup(context, id, () => readGroupInput(body))
 */
export async function replaceGroup(context: WriteContext, teamId: string, build: (view: GroupView) => GroupInput): Promise<boolean> {
  const { rules } = organizationAuthority(context.auth)
  return inOrganization(context, async (tx) => {
    const view = await findGroupView(tx, context.organizationId, teamId, true)
    if (!view) return false
    const input = build(view)
    if (await checkUnique(tx, context, input, teamId)) throw taken('displayName')
    const renamed = input.displayName !== view.team.name
    if (renamed) await tx.update({ model: 'team', where: { field: 'id', value: teamId }, update: { name: input.displayName } })
    const now = context.auth.clock.now()
    if (view.link) await tx.update({ model: 'scimGroup', where: { field: 'id', value: view.link.id }, update: { externalId: input.externalId, updatedAt: now } })
    else await tx.create({ model: 'scimGroup', data: { organizationId: context.organizationId, teamId, externalId: input.externalId } })
    const before = (view.members ?? []).map((member) => member.userId)
    await setMembers(tx, context, teamId, input.members, before)
    // A new name may map to other roles: every member's roles are decided again.
    if (renamed) await syncRoles(tx, context.options, rules, context.organizationId, [...before, ...input.members])
    return true
  })
}

/** Makes the team's members `wanted`, from `before`; roles follow for those who came or went. */
async function setMembers(tx: Store, context: WriteContext, teamId: string, wanted: readonly string[], before: readonly string[]): Promise<void> {
  const { rules } = organizationAuthority(context.auth)
  const had = new Set(before)
  const keep = new Set(wanted)
  const added = wanted.filter((id) => !had.has(id))
  const removed = before.filter((id) => !keep.has(id))
  await checkMembers(tx, context, added)
  if (keep.size > rules.teams.maximumMembersPerTeam && added.length > 0) {
    throw new ScimError(ScimErrors.FORBIDDEN, { message: 'The team has reached its number of members' })
  }
  if (removed.length > 0) {
    await tx.deleteMany({ model: 'teamMember', where: [{ field: 'teamId', value: teamId }, { field: 'userId', operator: 'in', value: removed }] })
  }
  for (const userId of added) await tx.create({ model: 'teamMember', data: { teamId, userId } })
  await syncRoles(tx, context.options, rules, context.organizationId, [...added, ...removed])
}

/**
 * DELETE /Groups/:id: the team, its memberships and its record; sessions
 * that had it active stop having it. Answers false when the team is gone.
 */
export async function deleteGroup(context: WriteContext, teamId: string, check?: (view: GroupView) => void): Promise<boolean> {
  const { rules } = organizationAuthority(context.auth)
  return inOrganization(context, async (tx) => {
    const view = await findGroupView(tx, context.organizationId, teamId, false)
    if (!view) return false
    check?.(view)
    if (!rules.teams.allowRemovingAllTeams) {
      const count = await tx.count({ model: 'team', where: { field: 'organizationId', value: context.organizationId } })
      if (count <= 1) throw new ScimError(ScimErrors.FORBIDDEN, { message: "The organization's last team cannot be removed" })
    }
    const members = await teamMemberIds(tx, teamId)
    await tx.deleteMany({ model: 'teamMember', where: { field: 'teamId', value: teamId } })
    await tx.deleteMany({ model: 'scimGroup', where: { field: 'teamId', value: teamId } })
    await tx.updateMany({ model: 'member', where: { field: 'teamId', value: teamId }, update: { teamId: null } })
    const sessions = await tx.findMany<Row & { id: string; updatedAt: Date }>({ model: 'session', where: { field: 'activeTeamId', value: teamId } })
    for (const session of sessions) {
      await tx.update({ model: 'session', where: { field: 'id', value: session.id }, update: { activeTeamId: null, updatedAt: session.updatedAt } })
    }
    await tx.delete({ model: 'team', where: { field: 'id', value: teamId } })
    await syncRoles(tx, context.options, rules, context.organizationId, members)
    return true
  })
}
