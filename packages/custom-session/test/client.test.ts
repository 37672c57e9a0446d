/**
 * The React package's client against a real in-process server with the
 * plugin: the session store and `client.getSession()` hold the custom
 * fields, and a cache hit (no call of the function) answers the same.
 */
import { createAuthClient } from '@gatehouse/react'
import { describe, expect, it } from 'vitest'
import { accountAuth } from '../../core/test/accounts.js'
import { BASE } from '../../core/test/helpers.js'
import { browser } from '../../react/test/browser.js'
import { customSession } from '../src/plugin.js'

describe('the client session', () => {
  it('carries the custom fields, Dates of core\'s rows revived, the fields as JSON sent them', async () => {
    let calls = 0
    const auth = accountAuth({
      session: { cookieCache: { enabled: true } },
      plugins: [customSession(({ user }) => ({ roles: ['admin'], greeting: `hi ${user.name}`, calls: ++calls }))],
    })
    const tab = browser(auth)
    const client = createAuthClient<typeof auth>({ baseURL: BASE, fetch: tab.fetch })
    const signedUp = await client.signUp.email({ name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' })
    expect(signedUp.error).toBeNull()

    const { data } = await client.getSession()
    expect(data).toMatchObject({ roles: ['admin'], greeting: 'hi Ada', calls: 1, user: { email: 'ada@example.com' } })
    expect(data?.session.expiresAt).toBeInstanceOf(Date)

    await client.$stores.session.refetch()
    expect(client.$stores.session.getSnapshot().data).toMatchObject({ roles: ['admin'], calls: 1 })
    expect(calls).toBe(1)
  })
})
