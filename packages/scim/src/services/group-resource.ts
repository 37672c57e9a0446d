/**
 * @module
 * Teams as SCIM Group resources (docs/scim.md#groups). The resource's `id`
 * is the team id, `displayName` its name, `externalId` the directory's (kept
 * in `scimGroup`), `members` the organization's members in the team, each by
 * user id. Members are read only when the answer or the filter needs them:
 * Entra ID looks groups up with `excludedAttributes=members`, and a large
 * team's members would be read for nothing.
 *
 * The version covers the name, the `externalId` and the last change; SCIM's
 * own membership changes count as changes (they touch `scimGroup`), those
 * made through the organization's routes do not (docs/scim.md#versions).
 */
import type { Row, Store } from '@gatehouse/core'
import { GROUP_SCHEMA } from '../protocol/constants.js'
import { versionOf } from '../protocol/versions.js'
import type { ScimGroupRow } from '../schema.js'

export interface TeamRow {
  [field: string]: unknown
  id: string
  name: string
  organizationId: string
  createdAt: Date
  updatedAt: Date | null
}

export interface GroupMember {
  readonly userId: string
  readonly name: string
}

export interface GroupView {
  readonly team: TeamRow
  readonly link: ScimGroupRow | null
  /** Null when not read. */
  readonly members: readonly GroupMember[] | null
}

const byCreation = [
  { field: 'createdAt', direction: 'asc' },
  { field: 'id', direction: 'asc' },
] as const

/** The team `teamId` of `organizationId` with its record, else null. */
export async function findGroupView(db: Store, organizationId: string, teamId: string, withMembers: boolean): Promise<GroupView | null> {
  const team = await db.findOne<TeamRow>({
    model: 'team',
    where: [
      { field: 'id', value: teamId },
      { field: 'organizationId', value: organizationId },
    ],
  })
  if (!team) return null
  return (await assemble(db, organizationId, [team], withMembers))[0] ?? null
}

/** Every team of the organization, oldest first. */
export async function listGroupViews(db: Store, organizationId: string, withMembers: boolean): Promise<GroupView[]> {
  const teams = await db.findMany<TeamRow>({ model: 'team', where: { field: 'organizationId', value: organizationId }, sortBy: byCreation })
  return assemble(db, organizationId, teams, withMembers)
}

async function assemble(db: Store, organizationId: string, teams: readonly TeamRow[], withMembers: boolean): Promise<GroupView[]> {
  if (teams.length === 0) return []
  const teamIds = teams.map((team) => team.id)
  const links = await db.findMany<ScimGroupRow>({ model: 'scimGroup', where: [{ field: 'organizationId', value: organizationId }, { field: 'teamId', operator: 'in', value: teamIds }] })
  const linkOf = new Map(links.map((link) => [link.teamId, link]))
  const membersOf = new Map<string, GroupMember[]>()
  if (withMembers) {
    const rows = await db.findMany<Row & { teamId: string; userId: string; user: (Row & { name: string }) | null }>({
      model: 'teamMember',
      where: { field: 'teamId', operator: 'in', value: teamIds },
      sortBy: byCreation,
      join: { user: { model: 'user', on: { field: 'userId', references: 'id' } } },
    })
    for (const row of rows) {
      const list = membersOf.get(row.teamId) ?? []
      list.push({ userId: row.userId, name: row.user?.name ?? '' })
      membersOf.set(row.teamId, list)
    }
  }
  return teams.map((team) => ({ team, link: linkOf.get(team.id) ?? null, members: withMembers ? (membersOf.get(team.id) ?? []) : null }))
}

/** The member ids of a team. */
export async function teamMemberIds(db: Store, teamId: string): Promise<string[]> {
  const rows = await db.findMany<Row & { userId: string }>({ model: 'teamMember', where: { field: 'teamId', value: teamId } })
  return rows.map((row) => row.userId)
}

/** The version of a group (module comment). */
export function groupVersion(view: GroupView): string {
  return versionOf({ displayName: view.team.name, externalId: view.link?.externalId ?? null, lastModified: lastModified(view).toISOString() })
}

function lastModified(view: GroupView): Date {
  const times = [view.team.createdAt.getTime(), view.team.updatedAt?.getTime() ?? 0, view.link?.updatedAt.getTime() ?? 0]
  return new Date(Math.max(...times))
}

/**
 * @example
 * renderGroup(view, 'https://app.example.com/api/auth/scim/v2').meta.location // …/Groups/<team id>
 */
export function renderGroup(view: GroupView, base: string): Record<string, unknown> {
  const { team, link, members } = view
  return {
    schemas: [GROUP_SCHEMA],
    id: team.id,
    ...(link?.externalId ? { externalId: link.externalId } : {}),
    displayName: team.name,
    ...(members ? { members: members.map((member) => ({ value: member.userId, $ref: `${base}/Users/${member.userId}`, display: member.name, type: 'User' })) } : {}),
    meta: {
      resourceType: 'Group',
      created: team.createdAt.toISOString(),
      lastModified: lastModified(view).toISOString(),
      location: `${base}/Groups/${team.id}`,
      version: groupVersion(view),
    },
  }
}

/** The attributes a filter's equality may narrow a group lookup by. */
export const GROUP_LOOKUP_ATTRIBUTES: ReadonlySet<string> = new Set(['id', 'externalid', 'displayname'])

/**
 * The teams that may match `attribute eq value` (the filter decides among
 * them): the directories look a group up by `displayName eq "…"` or `id`.
 */
export async function findGroupCandidates(
  db: Store,
  organizationId: string,
  equality: { readonly attribute: string; readonly value: string },
  withMembers: boolean,
): Promise<GroupView[]> {
  const inOrg = { field: 'organizationId', value: organizationId }
  let teamIds: string[] = []
  if (equality.attribute === 'id') teamIds = [equality.value]
  if (equality.attribute === 'externalid') {
    const link = await db.findOne<ScimGroupRow>({ model: 'scimGroup', where: [inOrg, { field: 'externalId', value: equality.value }] })
    teamIds = link ? [link.teamId] : []
  }
  if (equality.attribute === 'displayname') {
    const teams = await db.findMany<TeamRow>({ model: 'team', where: [inOrg, { field: 'name', value: equality.value, insensitive: true }], sortBy: byCreation })
    return assemble(db, organizationId, teams, withMembers)
  }
  const views: GroupView[] = []
  for (const teamId of teamIds) {
    const view = await findGroupView(db, organizationId, teamId, withMembers)
    if (view) views.push(view)
  }
  return views
}
