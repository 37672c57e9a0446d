/**
 * Type tests of the client half, checked by `pnpm typecheck`: the route
 * calls are typed from the server's endpoints, the actions by the plugin,
 * `usePasskeys()` by the store's route, and a server with `passkey()`
 * needs the client half.
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { createAuthClient } from '@gatehouse/react'
import { describe, expectTypeOf, it } from 'vitest'
import { passkeyClient, type ClientPasskey } from '../src/client.js'
import { passkey } from '../src/plugin.js'

const server = createAuth({ baseURL: 'http://localhost:3000', database: memoryAdapter(), plugins: [passkey()] })

const fromPlugins = createAuthClient({ baseURL: 'http://localhost:3000', plugins: [passkeyClient()] })
const fromServer = createAuthClient<typeof server>({ baseURL: 'http://localhost:3000', plugins: [passkeyClient()] })

describe('passkey client', () => {
  it('addPasskey takes an optional name and password and answers the passkey', async () => {
    expectTypeOf(fromPlugins.passkey.addPasskey).parameter(0).toEqualTypeOf<
      { readonly name?: string; readonly authenticatorAttachment?: 'platform' | 'cross-platform'; readonly password?: string } | undefined
    >()
    const { data, error } = await fromServer.passkey.addPasskey({ name: 'Laptop' })
    if (error) {
      expectTypeOf(error.code).toExtend<string>()
      // A browser-side failure has a code of its own.
      if (error.code === 'PASSKEY_CANCELLED') return
      // @ts-expect-error not a code any call can answer
      if (error.code === 'NOT_A_CODE') return
      return
    }
    expectTypeOf(data).toEqualTypeOf<ClientPasskey>()
    expectTypeOf(data.createdAt).toEqualTypeOf<Date>()
    // @ts-expect-error the name is a string
    void fromPlugins.passkey.addPasskey({ name: 1 })
  })

  it('signIn.passkey sits next to signIn.email', async () => {
    expectTypeOf(fromServer.signIn.email).toBeFunction()
    const { data, error } = await fromServer.signIn.passkey({ autoFill: true })
    if (error) return
    expectTypeOf(data.token).toEqualTypeOf<string>()
    expectTypeOf(data.user.email).toEqualTypeOf<string>()
  })

  it('the management routes are typed from the server endpoints', async () => {
    expectTypeOf(fromServer.passkey.updatePasskey).parameter(0).toEqualTypeOf<{ id: string; name: string }>()
    expectTypeOf(fromServer.passkey.deletePasskey).parameter(0).toEqualTypeOf<{ id: string }>()
    const list = await fromServer.passkey.listUserPasskeys()
    if (!list.error) expectTypeOf(list.data[0]!.name).toEqualTypeOf<string | null>()
    // @ts-expect-error the id is required
    void fromServer.passkey.deletePasskey({})
  })

  it('usePasskeys() reads the list', () => {
    type Data = ReturnType<typeof fromServer.usePasskeys>['data']
    expectTypeOf<NonNullable<Data>[number]['credentialID']>().toEqualTypeOf<string>()
  })

  it('the server type needs the client half', () => {
    // @ts-expect-error a server with passkey() needs passkeyClient()
    createAuthClient<typeof server>({ baseURL: 'http://localhost:3000' })
  })

  it('is on the server api', () => {
    expectTypeOf(server.api.verifyPasskeyAuthentication).toBeFunction()
    expectTypeOf(server.api.listPasskeys).toBeFunction()
  })
})
