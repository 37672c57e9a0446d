/**
 * Type tests of the client half, checked by `pnpm typecheck`: admin calls
 * are typed from the server's endpoints, with a client made from the plugin
 * list or from the server's type.
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { createAuthClient } from '@gatehouse/react'
import { describe, expectTypeOf, it } from 'vitest'
import { adminClient } from '../src/client.js'
import type { AdminErrorCode } from '../src/errors.js'
import { admin } from '../src/plugin.js'

const server = createAuth({ baseURL: 'http://localhost:3000', database: memoryAdapter(), plugins: [admin()] })

const fromPlugins = createAuthClient({ baseURL: 'http://localhost:3000', plugins: [adminClient()] })
const fromServer = createAuthClient<typeof server>({ baseURL: 'http://localhost:3000', plugins: [adminClient()] })

describe('admin routes', () => {
  it('list-users takes optional query fields and answers users with the admin fields', async () => {
    const { data } = await fromPlugins.admin.listUsers({ searchValue: 'ada', searchField: 'name', limit: 10 })
    expectTypeOf(fromPlugins.admin.listUsers).parameter(0).exclude<undefined>().toHaveProperty('searchOperator')
    if (data) {
      expectTypeOf(data.total).toEqualTypeOf<number>()
      expectTypeOf(data.users[0]!.role).toEqualTypeOf<string | null>()
      expectTypeOf(data.users[0]!.banExpires).toEqualTypeOf<Date | null>()
    }
  })

  it('per-user routes need their body; set-role takes a role or a list', () => {
    expectTypeOf(fromServer.admin.banUser).parameter(0).toEqualTypeOf<{ userId: string; banReason?: string | undefined; banExpiresIn?: number | undefined }>()
    expectTypeOf(fromServer.admin.setRole).parameter(0).toEqualTypeOf<{ userId: string; role: string | string[] }>()
    // @ts-expect-error userId is required
    void fromServer.admin.impersonateUser({})
  })

  it('errors carry the catalogue codes', async () => {
    const { error } = await fromServer.admin.removeUser({ userId: 'x' })
    if (error) expectTypeOf<AdminErrorCode>().toMatchTypeOf<typeof error.code>()
  })
})
