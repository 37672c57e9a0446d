/**
 * Type tests, checked by `pnpm typecheck` (tsc over test/): the client's
 * inputs and outputs come from the server's endpoints, additional fields
 * included, and a wrong argument does not compile.
 */
import { describe, expectTypeOf, it } from 'vitest'
import { createAuthClient } from '../src/index.js'
import { createAuthClient as createPlainClient } from '../src/client/index.js'
import type { AuthClientError, QueryState } from '../src/index.js'
import type { testServer } from './fixtures.js'

type Server = ReturnType<typeof testServer<[]>>
const client = createAuthClient<Server>({ baseURL: 'http://localhost:3000' })
const plain = createPlainClient({ baseURL: 'http://localhost:3000' })

describe('outputs', () => {
  it('sign-up answers the user with its additional fields, Dates revived, returned:false left out', async () => {
    const { data, error } = await client.signUp.email({ name: 'Ada', email: 'ada@example.com', password: 'x'.repeat(12), seats: 2 })
    if (error) return
    expectTypeOf(data.token).toEqualTypeOf<string | null>()
    expectTypeOf(data.user.email).toEqualTypeOf<string>()
    expectTypeOf(data.user.createdAt).toEqualTypeOf<Date>()
    expectTypeOf(data.user.seats).toEqualTypeOf<number>()
    expectTypeOf(data.user.plan).toEqualTypeOf<string | null | undefined>()
    // A date field arrives as JSON has it: ISO text.
    expectTypeOf(data.user.birthday).toEqualTypeOf<string | null | undefined>()
    // Users are open records on the server too: a field that is never returned is merely untyped.
    expectTypeOf(data.user.internalNote).toEqualTypeOf<unknown>()
  })

  it('get-session may be null and carries the session fields', async () => {
    const { data, error } = await client.getSession()
    if (error) return
    expectTypeOf(data).toBeNullable()
    expectTypeOf(NonNullable(data).session.device).toEqualTypeOf<string | null | undefined>()
    expectTypeOf(NonNullable(data).session.expiresAt).toEqualTypeOf<Date>()
    expectTypeOf(NonNullable(data).user.seats).toEqualTypeOf<number>()
  })

  it('without the server type there are no additional fields', async () => {
    const { data, error } = await plain.signIn.email({ email: 'ada@example.com', password: 'secret' })
    if (error) return
    expectTypeOf(data.redirect).toEqualTypeOf<boolean>()
    expectTypeOf(data.token).toEqualTypeOf<string>()
    expectTypeOf(data.user.seats).toEqualTypeOf<unknown>()
  })

  it('lists and redirect-capable routes', async () => {
    const accounts = await client.listAccounts()
    if (!accounts.error) expectTypeOf(accounts.data[0]?.scopes).toEqualTypeOf<string[] | undefined>()
    // verify-email may redirect on the server; the client only ever gets JSON.
    const verified = await client.verifyEmail({ token: 't' })
    if (!verified.error) expectTypeOf(verified.data).toEqualTypeOf<{ status: boolean; user: NonNullable<Awaited<ReturnType<typeof client.getSession>>['data']>['user'] }>()
  })
})

describe('inputs', () => {
  it('takes the body of POST routes and the query of GET routes', () => {
    expectTypeOf(client.changePassword).parameter(0).toEqualTypeOf<{
      newPassword: string
      currentPassword: string
      revokeOtherSessions?: boolean | undefined
    }>()
    expectTypeOf(client.verifyEmail).parameter(0).toEqualTypeOf<{ token?: string | undefined; callbackURL?: string | undefined } | undefined>()
    expectTypeOf(client.signOut).toBeCallableWith()
    expectTypeOf(client.getSession).toBeCallableWith()
    expectTypeOf(client.deleteUser).toBeCallableWith()
  })

  it('refuses wrong arguments', () => {
    // @ts-expect-error sign-in needs a password
    void client.signIn.email({ email: 'ada@example.com' })
    // @ts-expect-error rememberMe is a boolean
    void client.signIn.email({ email: 'ada@example.com', password: 'x', rememberMe: 'yes' })
    // @ts-expect-error seats is a required additional field without a default
    void client.signUp.email({ name: 'Ada', email: 'ada@example.com', password: 'x'.repeat(12) })
    // @ts-expect-error seats is a number
    void client.updateUser({ seats: 'many' })
    // @ts-expect-error revoke-session needs the token
    void client.revokeSession()
    // @ts-expect-error set-password is server only: not on the client
    void client.setPassword
  })

  it('update-user takes the additional fields, all optional', () => {
    expectTypeOf(client.updateUser).toBeCallableWith({ plan: 'pro' })
    expectTypeOf(client.updateUser).toBeCallableWith({ plan: null, birthday: new Date() })
    expectTypeOf(client.updateUser).toBeCallableWith({ seats: 4 })
  })
})

describe('errors', () => {
  it('narrow on code', async () => {
    const { error } = await client.signIn.email({ email: 'ada@example.com', password: 'x' })
    if (!error) return
    expectTypeOf(error.status).toEqualTypeOf<number>()
    switch (error.code) {
      case 'INVALID_EMAIL_OR_PASSWORD':
        expectTypeOf(error.code).toEqualTypeOf<'INVALID_EMAIL_OR_PASSWORD'>()
        break
      case 'CLIENT_VALIDATION_ERROR':
        expectTypeOf(error.issues).toEqualTypeOf<readonly { readonly path: string; readonly message: string }[] | undefined>()
        break
      // @ts-expect-error not a code of core or of the client
      case 'NO_SUCH_CODE':
        break
    }
  })
})

describe('hooks', () => {
  it('useSession returns data, error, isPending and refetch', () => {
    type State = ReturnType<typeof client.useSession>
    expectTypeOf<State['isPending']>().toEqualTypeOf<boolean>()
    expectTypeOf<State['refetch']>().toEqualTypeOf<() => Promise<void>>()
    expectTypeOf<NonNullable<State['data']>['user']['seats']>().toEqualTypeOf<number>()
    expectTypeOf<State>().toMatchTypeOf<QueryState<unknown>>()
    expectTypeOf<NonNullable<State['error']>>().toMatchTypeOf<AuthClientError>()
    // @ts-expect-error no organization plugin, no organization hook
    void client.useActiveOrganization
  })

  it('InitialState takes each store by name, typed', () => {
    type Props = Parameters<typeof client.InitialState>[0]
    expectTypeOf<NonNullable<Props['session']>>().toEqualTypeOf<NonNullable<ReturnType<typeof client.useSession>['data']>>()
    // @ts-expect-error no such store
    void ((props: Props) => props.activeOrganization)
    // @ts-expect-error a session is not a string
    void client.InitialState({ session: 'ada' })
  })
})

function NonNullable<T>(value: T): globalThis.NonNullable<T> {
  if (value === null || value === undefined) throw new Error('null')
  return value
}

describe('social routes', () => {
  it('type sign-in, link and the token routes from their endpoints', async () => {
    const started = await client.signIn.social({ provider: 'github', callbackURL: '/home', disableRedirect: true })
    if (!started.error) expectTypeOf(started.data.redirect).toEqualTypeOf<boolean>()
    const linked = await client.linkSocial({ provider: 'github' })
    if (!linked.error) expectTypeOf(linked.data.url).toEqualTypeOf<string>()
    const access = await client.getAccessToken({ providerId: 'github' })
    if (!access.error) {
      // The server's type; the route answers 400 rather than a null token.
      expectTypeOf(access.data.accessToken).toEqualTypeOf<string | null>()
      expectTypeOf(access.data.accessTokenExpiresAt).toEqualTypeOf<Date | null>()
      expectTypeOf(access.data.scopes).toEqualTypeOf<string[]>()
    }
    const refreshed = await client.refreshToken({ providerId: 'github' })
    if (!refreshed.error) expectTypeOf(refreshed.data.refreshTokenExpiresAt).toEqualTypeOf<Date | null>()
    const info = await client.accountInfo({ accountId: '1234' })
    if (!info.error) expectTypeOf(info.data.user.email).toEqualTypeOf<string | null>()
  })

  it('refuses wrong arguments', () => {
    // @ts-expect-error sign-in/social needs the provider
    void client.signIn.social({ callbackURL: '/' })
    // @ts-expect-error disableRedirect is a boolean
    void client.signIn.social({ provider: 'github', disableRedirect: 'yes' })
    // @ts-expect-error account-info needs the provider's account id
    void client.accountInfo({})
  })
})
