/**
 * Type tests of the client half, checked by `pnpm typecheck`: organization
 * calls and hooks are typed from the server's endpoints, with a client made
 * from the plugin list or from the server's type.
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { createAuthClient } from '@gatehouse/react'
import { describe, expectTypeOf, it } from 'vitest'
import { organizationClient } from '../src/client.js'
import { organization } from '../src/plugin.js'

const server = createAuth({
  baseURL: 'http://localhost:3000',
  database: memoryAdapter(),
  plugins: [organization()],
  user: { additionalFields: { locale: { type: 'string' } } },
})

const fromPlugins = createAuthClient({ baseURL: 'http://localhost:3000', plugins: [organizationClient()] })
const fromServer = createAuthClient<typeof server>({ baseURL: 'http://localhost:3000', plugins: [organizationClient()] })

describe('organization routes', () => {
  it('create takes the body and answers the organization with its members', async () => {
    expectTypeOf(fromPlugins.organization.create).parameter(0).toEqualTypeOf<{
      name: string
      slug: string
      userId?: string | undefined
      logo?: string | undefined
      metadata?: Record<string, unknown> | undefined
      keepCurrentActiveOrganization?: boolean | undefined
    }>()
    const { data, error } = await fromPlugins.organization.create({ name: 'Acme', slug: 'acme' })
    if (error) return
    expectTypeOf(data.slug).toEqualTypeOf<string>()
    expectTypeOf(data.createdAt).toEqualTypeOf<Date>()
    expectTypeOf(data.members[0]!.role).toEqualTypeOf<string>()
  })

  it('GET routes take their query; a wrong argument does not compile', async () => {
    expectTypeOf(fromPlugins.organization.getInvitation).toBeCallableWith({ id: 'inv' })
    // @ts-expect-error get-invitation needs the id
    void fromPlugins.organization.getInvitation()
    // @ts-expect-error set-active takes an id or a slug, not a number
    void fromPlugins.organization.setActive({ organizationId: 42 })
    // @ts-expect-error add-member is server only
    void fromPlugins.organization.addMember
    // Page sizes are numbers, though they travel as query text (the server coerces them).
    expectTypeOf(fromPlugins.organization.listMembers).parameter(0).toEqualTypeOf<
      { organizationId?: string | undefined; limit?: number | undefined; offset?: number | undefined } | undefined
    >()
    expectTypeOf(fromServer.organization.getFullOrganization).parameter(0).toEqualTypeOf<
      { organizationId?: string | undefined; organizationSlug?: string | undefined; membersLimit?: number | undefined } | undefined
    >()
    // @ts-expect-error a page size is a number
    void fromPlugins.organization.listMembers({ limit: 'ten' })
    // @ts-expect-error on the server too
    void server.api.getFullOrganization({ query: { membersLimit: '5' }, headers: new Headers() })
    const { data, error } = await fromPlugins.organization.listMembers({ limit: 10 })
    if (error) return
    expectTypeOf(data.total).toEqualTypeOf<number>()
  })

  it('errors narrow to the plugin catalogue too', async () => {
    const { error } = await fromPlugins.organization.leave({ organizationId: 'org' })
    if (!error) return
    switch (error.code) {
      case 'YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER':
      case 'UNAUTHORIZED':
      case 'CLIENT_VALIDATION_ERROR':
        break
      // @ts-expect-error not a code anywhere
      case 'YOU_CANNOT_LEAVE':
        break
    }
  })
})

describe('from the server type', () => {
  it('carries the additional user fields and the plugin routes', async () => {
    const session = await fromServer.getSession()
    if (!session.error && session.data) expectTypeOf(session.data.user.locale).toEqualTypeOf<string>()
    const member = await fromServer.organization.getActiveMember()
    if (!member.error) expectTypeOf(member.data.organizationId).toEqualTypeOf<string>()
  })

  it("takes the server's own get-session answer as the initial session", () => {
    type FromApi = Awaited<ReturnType<typeof server.api.getSession>>
    expectTypeOf<FromApi>().toMatchTypeOf<Parameters<typeof fromServer.InitialState>[0]['session']>()
    expectTypeOf(fromServer.useSession).toBeCallableWith({ initialData: null })
  })

  it('needs the client half of every server plugin', () => {
    // @ts-expect-error the server has organization(): its client half is required
    createAuthClient<typeof server>({ baseURL: 'http://localhost:3000' })
  })
})

describe('hooks', () => {
  it('one per store', () => {
    type Active = ReturnType<typeof fromPlugins.useActiveOrganization>
    expectTypeOf<NonNullable<Active['data']>['members'][number]['user']>().toEqualTypeOf<{
      id: string
      name: string
      email: string
      image: string | null
    } | null>()
    type List = ReturnType<typeof fromServer.useListOrganizations>
    expectTypeOf<NonNullable<List['data']>[number]['name']>().toEqualTypeOf<string>()
    type Member = ReturnType<typeof fromServer.useActiveMember>
    expectTypeOf<NonNullable<Member['data']>['role']>().toEqualTypeOf<string>()
  })
})
