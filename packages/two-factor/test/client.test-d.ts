/**
 * Type tests of the client half, checked by `pnpm typecheck`: each call is
 * typed from the server's endpoint, with a client made from the plugin list
 * or from the server's type (which requires the client half), and the
 * sign-in answer narrows with `isTwoFactorRedirect`.
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { createAuthClient } from '@gatehouse/react'
import { describe, expectTypeOf, it } from 'vitest'
import { isTwoFactorRedirect, twoFactorClient, type TwoFactorRedirect } from '../src/client.js'
import { twoFactor } from '../src/plugin.js'

const server = createAuth({ baseURL: 'http://localhost:3000', database: memoryAdapter(), plugins: [twoFactor()] })

const fromPlugins = createAuthClient({ baseURL: 'http://localhost:3000', plugins: [twoFactorClient()] })
const fromServer = createAuthClient<typeof server>({ baseURL: 'http://localhost:3000', plugins: [twoFactorClient()] })

describe('client.twoFactor', () => {
  it('takes each route body and answers its shape', async () => {
    expectTypeOf(fromPlugins.twoFactor.enable).parameter(0).toEqualTypeOf<{ password: string }>()
    expectTypeOf(fromPlugins.twoFactor.verifyTotp).parameter(0).toEqualTypeOf<{ code: string; trustDevice?: boolean | undefined }>()
    expectTypeOf(fromPlugins.twoFactor.verifyBackupCode).parameter(0).toEqualTypeOf<{ code: string }>()
    const enabled = await fromServer.twoFactor.enable({ password: 'x' })
    if (enabled.error) return
    expectTypeOf(enabled.data.totpURI).toEqualTypeOf<string>()
    expectTypeOf(enabled.data.backupCodes).toEqualTypeOf<string[]>()
    const verified = await fromServer.twoFactor.verifyTotp({ code: '123456' })
    if (verified.error) return
    expectTypeOf(verified.data.token).toEqualTypeOf<string | null>()
    expectTypeOf(verified.data.user.email).toEqualTypeOf<string>()
    const codes = await fromServer.twoFactor.generateBackupCodes({ password: 'x' })
    if (!codes.error) expectTypeOf(codes.data.backupCodes).toEqualTypeOf<string[]>()
    // @ts-expect-error the code is required
    void fromPlugins.twoFactor.verifyTotp({ trustDevice: true })
    // @ts-expect-error the password is required
    void fromPlugins.twoFactor.disable({})
  })

  it('the sign-in answer is a union of the session answer and the redirect, and narrows either way', async () => {
    for (const client of [fromServer, fromPlugins]) {
      const { data, error } = await client.signIn.email({ email: 'ada@example.com', password: 'x' })
      if (error) return
      expectTypeOf<TwoFactorRedirect>().toExtend<typeof data>()
      // @ts-expect-error the answer may be the redirect, which has no user
      void data.user
      if (isTwoFactorRedirect(data)) expectTypeOf(data).toEqualTypeOf<TwoFactorRedirect>()
      else expectTypeOf(data.user.email).toEqualTypeOf<string>()
      if ('twoFactorRedirect' in data) expectTypeOf(data.twoFactorRedirect).toEqualTypeOf<true>()
    }
    expectTypeOf(isTwoFactorRedirect).guards.toEqualTypeOf<TwoFactorRedirect>()
    // Without two-factor, sign-in answers a session only.
    const plain = await createAuthClient({ baseURL: 'http://localhost:3000' }).signIn.email({ email: 'ada@example.com', password: 'x' })
    if (!plain.error) expectTypeOf(plain.data.user.email).toEqualTypeOf<string>()
  })

  it('error codes include the catalogue', async () => {
    const { error } = await fromServer.twoFactor.verifyOtp({ code: '1' })
    if (error) expectTypeOf<'INVALID_CODE'>().toExtend<typeof error.code>()
  })

  it('the server type needs the client half', () => {
    // @ts-expect-error a server with twoFactor() needs twoFactorClient()
    createAuthClient<typeof server>({ baseURL: 'http://localhost:3000' })
  })

  it('is on the server api', () => {
    expectTypeOf(server.api.enableTwoFactor).toBeFunction()
    expectTypeOf(server.api.verifyTOTP).toBeFunction()
  })
})
