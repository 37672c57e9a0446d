/**
 * Type tests, checked by `pnpm typecheck`: the fields `customSession` adds
 * are in the type of `auth.api.getSession`, of the React client's
 * `useSession()` data and of `client.getSession()`, with no cast; a server
 * without the plugin answers `{ session, user }` only.
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { createAuthClient } from '@gatehouse/react'
import { createAuthClient as createPlainClient } from '@gatehouse/react/client'
import { describe, expectTypeOf, it } from 'vitest'
import { customSession } from '../src/plugin.js'

const server = createAuth({
  baseURL: 'http://localhost:3000',
  database: memoryAdapter(),
  user: { additionalFields: { locale: { type: 'string' } } },
  plugins: [
    customSession(async ({ user }) => ({
      roles: user.email.endsWith('@example.com') ? ['admin'] : ['member'],
      plan: { name: 'pro', seats: 3 },
    })),
  ],
})

const plainServer = createAuth({ baseURL: 'http://localhost:3000', database: memoryAdapter() })

type Answer = NonNullable<Awaited<ReturnType<typeof server.api.getSession>>>

describe('custom session fields', () => {
  it('are on auth.api.getSession, next to core\'s session and user', () => {
    expectTypeOf<Answer['roles']>().toEqualTypeOf<string[]>()
    expectTypeOf<Answer['plan']>().toEqualTypeOf<{ name: string; seats: number }>()
    expectTypeOf<Answer['user']['email']>().toEqualTypeOf<string>()
    expectTypeOf<Answer['user']['locale']>().toEqualTypeOf<string>()
    expectTypeOf<Answer['session']['expiresAt']>().toEqualTypeOf<Date>()
  })

  it('are in useSession() data and client.getSession() without a cast', async () => {
    const client = createAuthClient<typeof server>({ baseURL: 'http://localhost:3000' })
    type Data = NonNullable<ReturnType<typeof client.useSession>['data']>
    expectTypeOf<Data['roles']>().toEqualTypeOf<string[]>()
    expectTypeOf<Data['plan']['seats']>().toEqualTypeOf<number>()
    expectTypeOf<Data['user']['createdAt']>().toEqualTypeOf<Date>()
    const { data, error } = await client.getSession()
    if (error || !data) return
    expectTypeOf(data.roles).toEqualTypeOf<string[]>()
    const plain = createPlainClient<typeof server>({ baseURL: 'http://localhost:3000' })
    expectTypeOf<NonNullable<ReturnType<typeof plain.$stores.session.getSnapshot>['data']>>().toEqualTypeOf<Data>()
  })

  it('a server without the plugin answers session and user only', async () => {
    const client = createAuthClient<typeof plainServer>({ baseURL: 'http://localhost:3000' })
    type Data = NonNullable<ReturnType<typeof client.useSession>['data']>
    expectTypeOf<keyof Data>().toEqualTypeOf<'session' | 'user'>()
    const answer = await plainServer.api.getSession({ headers: new Headers() })
    // @ts-expect-error no custom fields without the plugin
    void answer?.roles
  })

  it('the function returns JSON values under names other than session and user', () => {
    // @ts-expect-error a Date would reach the client as text: send an ISO string instead
    customSession(() => ({ renewsAt: new Date() }))
    // @ts-expect-error core's user stays core's
    customSession(() => ({ user: 'someone' }))
    customSession(() => ({ renewsAt: new Date().toISOString(), tags: [{ id: 1 }] }))
  })
})
