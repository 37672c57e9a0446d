/**
 * The client half against a real in-process server with the plugin:
 * `client.signIn.magicLink` sits next to core's `client.signIn.email`, sends
 * the request the server expects, and after the mailed link is opened in the
 * same browser the session store shows the user.
 */
import { createAuthClient } from '@gatehouse/react'
import { describe, expect, it } from 'vitest'
import { BASE } from '../../core/test/helpers.js'
import { browser } from '../../react/test/browser.js'
import { expectTableMatches } from '../../react/test/routes.js'
import { magicLinkClient, magicLinkRoutes } from '../src/client.js'
import { resolveOptions } from '../src/options.js'
import { magicLinkEndpoints } from '../src/routes/index.js'
import { linkAuth } from './fixtures.js'

describe('magic-link route table', () => {
  it('matches the server, leaving out the link the browser opens from the mail', () => {
    const endpoints = magicLinkEndpoints(resolveOptions({ sendMagicLink: () => {} }))
    expectTableMatches(magicLinkRoutes, endpoints, {
      magicLinkVerify: 'opened by the browser from the mail',
      magicLinkVerifyPost: "posted by the link's confirmation page",
    })
  })
})

describe('client.signIn.magicLink', () => {
  it('requests the link; opening it in the same browser signs the session store in', async () => {
    const auth = linkAuth()
    const tab = browser(auth)
    const client = createAuthClient<typeof auth>({ baseURL: BASE, fetch: tab.fetch, plugins: [magicLinkClient()] })
    expect(typeof client.signIn.email).toBe('function')

    const { data, error } = await client.signIn.magicLink({ email: 'ada@example.com', name: 'Ada', callbackURL: '/dashboard' })
    expect(error).toBeNull()
    expect(data).toEqual({ status: true })
    const sent = tab.requests.find((entry) => entry.path === '/api/auth/sign-in/magic-link')
    expect(sent).toMatchObject({ method: 'POST', contentType: 'application/json' })
    expect(JSON.parse(sent!.body)).toEqual({ email: 'ada@example.com', name: 'Ada', callbackURL: '/dashboard' })
    expect((await client.getSession()).data).toBeNull()

    await tab.fetch(auth.lastLink()!.url, { redirect: 'manual' })
    await client.$stores.session.refetch()
    expect(client.$stores.session.getSnapshot().data?.user).toMatchObject({ email: 'ada@example.com', name: 'Ada', emailVerified: true })
  })

  it('answers an untrusted callbackURL with the server error', async () => {
    const auth = linkAuth()
    const client = createAuthClient({ baseURL: BASE, fetch: browser(auth).fetch, plugins: [magicLinkClient()] })
    const { data, error } = await client.signIn.magicLink({ email: 'ada@example.com', callbackURL: 'https://evil.test' })
    expect(data).toBeNull()
    expect(error).toMatchObject({ status: 403, message: 'Invalid callbackURL' })
    expect(auth.links).toHaveLength(0)
  })

  it('a client plugin cannot take a name core already uses in a group', () => {
    const clash = { id: 'clash', routes: { signIn: { email: magicLinkRoutes.signIn.magicLink } } }
    expect(() => createAuthClient({ baseURL: BASE, plugins: [clash] })).toThrow('Client name "signIn.email" of plugin "clash" is already taken')
  })
})
