/**
 * Fixtures for the organization flows: an auth with the plugin on the
 * in-memory adapter, users signed up through the real routes, and request
 * shorthands that return status and parsed body.
 */
import { accountAuth, authed, signUp } from '../../core/test/accounts.js'
import { organization } from '../src/plugin.js'
import type { OrganizationOptions } from '../src/options.js'

export type OrgAuth = ReturnType<typeof orgAuth>

/** What the helpers below use of an auth: any auth with the plugin, other plugins beside it included. */
export type AnyAuth = Pick<OrgAuth, 'handler' | '$context' | 'clock'>

export function orgAuth(options: OrganizationOptions = {}, core: Parameters<typeof accountAuth>[0] = {}) {
  const invitations: Array<{ id: string; email: string; role: string; organizationId: string }> = []
  const auth = accountAuth({
    ...core,
    plugins: [
      organization({
        sendInvitationEmail: ({ id, email, role, organization }) => {
          invitations.push({ id, email, role, organizationId: organization.id })
        },
        ...options,
      }),
    ],
  })
  return Object.assign(auth, { invitations })
}

export interface TestUser {
  readonly id: string
  readonly email: string
  readonly cookie: string
}

let counter = 0

/** Signs a user up (email verified unless told otherwise) and returns their cookie. */
export async function newUser(auth: AnyAuth, options: { email?: string; verified?: boolean } = {}): Promise<TestUser> {
  counter += 1
  const email = options.email ?? `user${counter}-${Math.floor(performance.now())}@example.com`
  const { body, cookie } = await signUp(auth, { email })
  if (!body.user) throw new Error(`sign-up failed: ${JSON.stringify(body)}`)
  if (options.verified !== false) {
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: body.user.id }, update: { emailVerified: true } })
  }
  return { id: body.user.id, email: body.user.email, cookie }
}

export interface Reply {
  readonly status: number
  // Response bodies are JSON of unknown shape; tests assert on them.
  readonly body: any
}

/** POST with a JSON body (or GET with query parameters) to `/api/auth/organization/<path>`. */
export async function post(auth: AnyAuth, path: string, caller: TestUser | null, json: unknown = {}): Promise<Reply> {
  const response = await auth.handler(authed(`/api/auth/organization/${path}`, caller?.cookie ?? '', { json }))
  return { status: response.status, body: await response.json() }
}

export async function get(auth: AnyAuth, path: string, caller: TestUser | null, query: Record<string, string> = {}): Promise<Reply> {
  const search = new URLSearchParams(query).toString()
  const response = await auth.handler(authed(`/api/auth/organization/${path}${search ? `?${search}` : ''}`, caller?.cookie ?? ''))
  return { status: response.status, body: await response.json() }
}

/** The caller's session row, read from the database. */
export async function sessionOf(auth: AnyAuth, user: TestUser) {
  const { db } = await auth.$context
  const sessions = await db.findMany({ model: 'session', where: { field: 'userId', value: user.id } })
  return sessions[0] ?? null
}

/** Creates an organization owned by `owner` and answers it. */
export async function createOrg(auth: AnyAuth, owner: TestUser, slug = `org-${++counter}`) {
  // The test clock stands still: move it so rows sort by creation.
  auth.clock.advance(1000)
  const reply = await post(auth, 'create', owner, { name: `Org ${slug}`, slug })
  if (reply.status !== 200) throw new Error(`create failed: ${JSON.stringify(reply.body)}`)
  return reply.body as { id: string; slug: string; name: string; members: Array<{ id: string; role: string; userId: string }> }
}

/** Adds `user` to the organization with `role` through the server-only api. */
export async function addMember(auth: AnyAuth, organizationId: string, user: TestUser, role = 'member') {
  auth.clock.advance(1000)
  const { db } = await auth.$context
  return db.create({ model: 'member', data: { organizationId, userId: user.id, role, teamId: null } })
}

/** An organization with an owner, an admin and a member, plus an outsider who belongs to none. */
export async function roster(auth: AnyAuth) {
  const owner = await newUser(auth)
  const admin = await newUser(auth)
  const member = await newUser(auth)
  const outsider = await newUser(auth)
  const org = await createOrg(auth, owner)
  const adminRow = await addMember(auth, org.id, admin, 'admin')
  const memberRow = await addMember(auth, org.id, member, 'member')
  const ownerRow = org.members[0] as { id: string }
  return { org, owner, admin, member, outsider, ids: { owner: ownerRow.id, admin: String(adminRow.id), member: String(memberRow.id) } }
}

export type Roster = Awaited<ReturnType<typeof roster>>
