/**
 * @module
 * Members as SCIM User resources (docs/scim.md#mapping). A member is read
 * with its user row, what the directory last said about it (`scimUser`, if
 * anything) and, with groups on, its teams. The resource's `id` is the user
 * id; `userName`, `externalId` and the other attributes are the directory's
 * when it wrote them, else derived from the user (`userName` and the one
 * email are the user's email, `displayName` its name); `active` is false
 * while the membership is suspended; `groups` lists the member's teams.
 *
 * Only members of the token's organization are ever read: every query
 * names the organization, so another organization's user id is not found.
 */
import type { Row, Store, User } from '@gatehouse/core'
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from '../protocol/constants.js'
import { versionOf } from '../protocol/versions.js'
import type { ScimUserRow } from '../schema.js'

export interface MemberRow {
  [field: string]: unknown
  id: string
  organizationId: string
  userId: string
  role: string
  createdAt: Date
  suspendedAt?: Date | null
}

export interface TeamRef {
  readonly id: string
  readonly name: string
}

export interface UserView {
  readonly member: MemberRow
  readonly user: User & Row
  readonly link: ScimUserRow | null
  readonly groups: readonly TeamRef[]
}

type MemberWithUser = MemberRow & { user: (User & Row) | null }

const byCreation = [
  { field: 'createdAt', direction: 'asc' },
  { field: 'id', direction: 'asc' },
] as const

/**
 * The view of `userId` if it is a member of `organizationId`, else null.
 *
 * @example
 * const view = await findUserView(tx, organizationId, params.id, { groups: true })
 */
export async function findUserView(db: Store, organizationId: string, userId: string, options: { readonly groups: boolean }): Promise<UserView | null> {
  const member = await db.findOne<MemberWithUser>({
    model: 'member',
    where: [
      { field: 'organizationId', value: organizationId },
      { field: 'userId', value: userId },
    ],
    join: { user: { model: 'user', on: { field: 'userId', references: 'id' } } },
  })
  if (!member?.user) return null
  const views = await assemble(db, organizationId, [member], options)
  return views[0] ?? null
}

/**
 * Members of the organization in creation order: one page, or all of them (`page` left out).
 *
 * @example
 * const views = await listUserViews(db, organizationId, { groups: true }, { limit: 100, offset: 0 })
 */
export async function listUserViews(
  db: Store,
  organizationId: string,
  options: { readonly groups: boolean },
  page?: { readonly limit: number; readonly offset: number },
): Promise<UserView[]> {
  const members = await db.findMany<MemberWithUser>({
    model: 'member',
    where: { field: 'organizationId', value: organizationId },
    sortBy: byCreation,
    join: { user: { model: 'user', on: { field: 'userId', references: 'id' } } },
    ...(page ? { limit: page.limit, offset: page.offset } : {}),
  })
  return assemble(db, organizationId, members, options)
}

async function assemble(db: Store, organizationId: string, members: readonly MemberWithUser[], options: { readonly groups: boolean }): Promise<UserView[]> {
  const present = members.filter((member): member is MemberRow & { user: User & Row } => member.user !== null)
  if (present.length === 0) return []
  const userIds = present.map((member) => member.userId)
  const links = await db.findMany<ScimUserRow>({
    model: 'scimUser',
    where: [
      { field: 'organizationId', value: organizationId },
      { field: 'userId', operator: 'in', value: userIds },
    ],
  })
  const linkOf = new Map(links.map((link) => [link.userId, link]))
  const teamsOf = options.groups ? await teamsOfUsers(db, organizationId, userIds) : new Map<string, TeamRef[]>()
  return present.map(({ user, ...member }) => ({ member, user, link: linkOf.get(member.userId) ?? null, groups: teamsOf.get(member.userId) ?? [] }))
}

/** The organization's teams each user belongs to, by user id. */
export async function teamsOfUsers(db: Store, organizationId: string, userIds: readonly string[]): Promise<Map<string, TeamRef[]>> {
  const result = new Map<string, TeamRef[]>()
  const teams = await db.findMany<Row & { id: string; name: string }>({ model: 'team', where: { field: 'organizationId', value: organizationId }, sortBy: byCreation })
  if (teams.length === 0 || userIds.length === 0) return result
  const teamById = new Map(teams.map((team) => [team.id, team]))
  const rows = await db.findMany<Row & { teamId: string; userId: string }>({
    model: 'teamMember',
    where: [
      { field: 'teamId', operator: 'in', value: teams.map((team) => team.id) },
      { field: 'userId', operator: 'in', value: [...userIds] },
    ],
  })
  for (const row of rows) {
    const team = teamById.get(row.teamId)
    if (!team) continue
    const list = result.get(row.userId) ?? []
    list.push({ id: team.id, name: team.name })
    result.set(row.userId, list)
  }
  return result
}

/** The order attributes are answered in. */
const ORDER = ['name', 'displayName', 'nickName', 'profileUrl', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone', 'emails', 'phoneNumbers', 'ims', 'photos', 'addresses', 'entitlements', 'roles', 'x509Certificates']

/**
 * The User resource of a view, `meta` included.
 *
 * @example
 * renderUser(view, 'https://app.example.com/api/auth/scim/v2', { groups: true }).meta.location
 */
export function renderUser(view: UserView, base: string, options: { readonly groups: boolean }): Record<string, unknown> {
  const { member, user, link } = view
  const stored = link?.attributes ?? {}
  const derived: Record<string, unknown> = link
    ? {}
    : {
        ...(user.name ? { name: { formatted: user.name }, displayName: user.name } : {}),
        emails: [{ value: user.email, type: 'work', primary: true }],
      }
  const enterprise = stored[ENTERPRISE_USER_SCHEMA]
  const resource: Record<string, unknown> = {
    schemas: enterprise ? [USER_SCHEMA, ENTERPRISE_USER_SCHEMA] : [USER_SCHEMA],
    id: user.id,
    ...(link?.externalId ? { externalId: link.externalId } : {}),
    userName: link?.userName ?? user.email,
  }
  for (const name of ORDER) {
    const value = Object.hasOwn(stored, name) ? stored[name] : derived[name]
    if (value !== undefined) resource[name] = value
  }
  resource.active = !member.suspendedAt
  if (options.groups) {
    resource.groups = view.groups.map((team) => ({ value: team.id, $ref: `${base}/Groups/${team.id}`, display: team.name, type: 'direct' }))
  }
  if (enterprise) resource[ENTERPRISE_USER_SCHEMA] = enterprise
  const modified = Math.max(link?.updatedAt.getTime() ?? 0, user.updatedAt.getTime(), member.createdAt.getTime(), member.suspendedAt?.getTime() ?? 0)
  resource.meta = {
    resourceType: 'User',
    created: (link?.createdAt ?? member.createdAt).toISOString(),
    lastModified: new Date(modified).toISOString(),
    location: `${base}/Users/${user.id}`,
    version: versionOf(resource),
  }
  return resource
}

/** The attributes a filter's equality may narrow a user lookup by. */
export const USER_LOOKUP_ATTRIBUTES: ReadonlySet<string> = new Set(['id', 'externalid', 'username'])

/**
 * The members that may match `attribute eq value` (the filter decides among
 * them): Okta's and Entra ID's `userName eq "…"` lookups read one member,
 * not the whole organization.
 *
 * @example
 * await findUserCandidates(db, organizationId, { attribute: 'username', value: 'Ada@Acme.com' }, { groups: true })
 */
export async function findUserCandidates(
  db: Store,
  organizationId: string,
  equality: { readonly attribute: string; readonly value: string },
  options: { readonly groups: boolean },
): Promise<UserView[]> {
  const inOrg = { field: 'organizationId', value: organizationId }
  const userIds = new Set<string>()
  if (equality.attribute === 'id') userIds.add(equality.value)
  if (equality.attribute === 'externalid') {
    const link = await db.findOne<ScimUserRow>({ model: 'scimUser', where: [inOrg, { field: 'externalId', value: equality.value }] })
    if (link) userIds.add(link.userId)
  }
  if (equality.attribute === 'username') {
    const key = equality.value.toLowerCase()
    const link = await db.findOne<ScimUserRow>({ model: 'scimUser', where: [inOrg, { field: 'userNameKey', value: key }] })
    if (link) userIds.add(link.userId)
    // A member the directory never wrote answers to its email.
    const user = await db.findOne<User & Row>({ model: 'user', where: { field: 'email', value: key } })
    if (user) userIds.add(user.id)
  }
  const views: UserView[] = []
  for (const userId of userIds) {
    const view = await findUserView(db, organizationId, userId, options)
    if (view) views.push(view)
  }
  return views
}
