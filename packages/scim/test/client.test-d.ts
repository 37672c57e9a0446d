/**
 * Type tests of the client half, checked by `pnpm typecheck`: the calls are
 * typed from the server's endpoints, with a client made from the plugin list
 * or from the server's type (which requires the client half).
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { organization } from '@gatehouse/organization'
import { organizationClient } from '@gatehouse/organization/client'
import { createAuthClient } from '@gatehouse/react'
import { describe, expectTypeOf, it } from 'vitest'
import { scimClient } from '../src/client.js'
import { scim } from '../src/plugin.js'

const server = createAuth({
  baseURL: 'http://localhost:3000',
  database: memoryAdapter(),
  plugins: [organization({ teams: { enabled: true } }), scim()],
})

const client = createAuthClient<typeof server>({ baseURL: 'http://localhost:3000', plugins: [organizationClient(), scimClient()] })

describe('client.scim', () => {
  it('generateToken takes the organization and answers the token', async () => {
    expectTypeOf(client.scim.generateToken).parameter(0).toEqualTypeOf<{ organizationId: string; providerId?: string | undefined }>()
    const { data, error } = await client.scim.generateToken({ organizationId: 'o' })
    if (error) return
    expectTypeOf(data.scimToken).toEqualTypeOf<string>()
    // @ts-expect-error the organization is required
    void client.scim.generateToken({})
  })

  it('listTokens and revokeToken', () => {
    expectTypeOf(client.scim.listTokens).parameter(0).toEqualTypeOf<{ organizationId: string }>()
    expectTypeOf(client.scim.revokeToken).parameter(0).toEqualTypeOf<{ tokenId: string }>()
  })

  it('the server type needs the client half', () => {
    // @ts-expect-error a server with scim() needs scimClient()
    createAuthClient<typeof server>({ baseURL: 'http://localhost:3000', plugins: [organizationClient()] })
  })

  it('is on the server api', () => {
    expectTypeOf(server.api.generateSCIMToken).toBeFunction()
    expectTypeOf(server.api.scimPatchUser).toBeFunction()
  })
})
