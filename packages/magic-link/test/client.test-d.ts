/**
 * Type tests of the client half, checked by `pnpm typecheck`: the call is
 * typed from the server's endpoint, with a client made from the plugin
 * list or from the server's type (which requires the client half).
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { createAuthClient } from '@gatehouse/react'
import { describe, expectTypeOf, it } from 'vitest'
import { magicLinkClient } from '../src/client.js'
import { magicLink } from '../src/plugin.js'

const server = createAuth({
  baseURL: 'http://localhost:3000',
  database: memoryAdapter(),
  plugins: [magicLink({ sendMagicLink: () => {} })],
})

const fromPlugins = createAuthClient({ baseURL: 'http://localhost:3000', plugins: [magicLinkClient()] })
const fromServer = createAuthClient<typeof server>({ baseURL: 'http://localhost:3000', plugins: [magicLinkClient()] })

describe('signIn.magicLink', () => {
  it('takes the body and answers the status, next to signIn.email', async () => {
    expectTypeOf(fromPlugins.signIn.magicLink).parameter(0).toEqualTypeOf<{
      email: string
      name?: string | undefined
      callbackURL?: string | undefined
      newUserCallbackURL?: string | undefined
      errorCallbackURL?: string | undefined
    }>()
    expectTypeOf(fromServer.signIn.email).toBeFunction()
    const { data, error } = await fromServer.signIn.magicLink({ email: 'ada@example.com' })
    if (error) return
    expectTypeOf(data).toEqualTypeOf<{ status: boolean }>()
    // @ts-expect-error the email is required
    void fromPlugins.signIn.magicLink({ callbackURL: '/' })
  })

  it('the server type needs the client half', () => {
    // @ts-expect-error a server with magicLink() needs magicLinkClient()
    createAuthClient<typeof server>({ baseURL: 'http://localhost:3000' })
  })

  it('is on the server api', () => {
    expectTypeOf(server.api.signInMagicLink).toBeFunction()
    expectTypeOf(server.api.magicLinkVerify).toBeFunction()
  })
})
