/**
 * Type tests of the client half, checked by `pnpm typecheck`: the oauth2
 * calls are typed from the server's endpoints (or, for registration, whose
 * endpoint answers its own 201 Response, from the route's shape), the path
 * parameter is required, and a server with the provider needs this half.
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { createAuthClient } from '@gatehouse/react'
import { describe, expectTypeOf, it } from 'vitest'
import { oidcProviderClient, useOAuthClient } from '../src/client.js'
import { oidcProvider } from '../src/plugin.js'

const server = createAuth({
  baseURL: 'http://localhost:3000',
  database: memoryAdapter(),
  plugins: [oidcProvider({ loginPage: '/login', consentPage: '/consent' })],
})

const fromPlugins = createAuthClient({ baseURL: 'http://localhost:3000', plugins: [oidcProviderClient()] })
const fromServer = createAuthClient<typeof server>({ baseURL: 'http://localhost:3000', plugins: [oidcProviderClient()] })

describe('oauth2 routes', () => {
  it('consent takes accept and answers where to go', async () => {
    expectTypeOf(fromPlugins.oauth2.consent).toBeCallableWith({ accept: true })
    // @ts-expect-error accept is required
    void fromPlugins.oauth2.consent({})
    const { data, error } = await fromServer.oauth2.consent({ accept: false })
    if (error) return
    expectTypeOf(data.redirectURI).toEqualTypeOf<string>()
  })

  it('consentRequest needs the consent_id and answers the request as the server holds it', async () => {
    expectTypeOf(fromPlugins.oauth2.consentRequest).toBeCallableWith({ consent_id: 'abc' })
    // @ts-expect-error consent_id is required: the page shows nothing without it
    void fromServer.oauth2.consentRequest({})
    const { data, error } = await fromServer.oauth2.consentRequest({ consent_id: 'abc' })
    if (error) return
    expectTypeOf(data.scopes).toEqualTypeOf<string[]>()
    expectTypeOf(data.client.verified).toEqualTypeOf<boolean>()
    expectTypeOf(data.client.policyURI).toEqualTypeOf<string | null>()
  })

  it('clientInfo needs the id for its path and answers the public face', async () => {
    expectTypeOf(fromPlugins.oauth2.clientInfo).toBeCallableWith({ id: 'abc' })
    // @ts-expect-error the id fills the path: required
    void fromPlugins.oauth2.clientInfo()
    // @ts-expect-error an id is a string
    void fromPlugins.oauth2.clientInfo({ id: 7 })
    const { data, error } = await fromPlugins.oauth2.clientInfo({ id: 'abc' })
    if (error) return
    expectTypeOf(data).toEqualTypeOf<{ clientId: string; name: string; icon: string | null }>()
  })

  it('register answers the RFC 7591 fields, typed from the route shape', async () => {
    const { data, error } = await fromPlugins.oauth2.register({ client_name: 'Notes', redirect_uris: ['https://rp.example.com/cb'] })
    if (error) return
    expectTypeOf(data.client_id).toEqualTypeOf<string>()
    expectTypeOf(data.client_secret).toEqualTypeOf<string | undefined>()
    expectTypeOf(data.client_secret_expires_at).toEqualTypeOf<number>()
  })

  it('errors narrow to the provider catalogue', async () => {
    const { error } = await fromPlugins.oauth2.clientInfo({ id: 'abc' })
    if (!error) return
    switch (error.code) {
      case 'CLIENT_NOT_FOUND':
      case 'NO_PENDING_CONSENT':
      case 'CLIENT_VALIDATION_ERROR':
        break
      // @ts-expect-error not a code anywhere
      case 'CLIENT_GONE':
        break
    }
  })
})

describe('useOAuthClient', () => {
  it("holds the client info route's answer", () => {
    type State = ReturnType<typeof useOAuthClient<{ clientId: string; name: string; icon: string | null }, string>>
    expectTypeOf<NonNullable<State['data']>['name']>().toEqualTypeOf<string>()
    expectTypeOf(useOAuthClient).toBeCallableWith(fromServer, 'client-id')
  })

  it('a server with the provider needs its client half', () => {
    // @ts-expect-error the server has oidcProvider(): its client half is required
    createAuthClient<typeof server>({ baseURL: 'http://localhost:3000' })
  })
})
