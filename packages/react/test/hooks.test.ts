/**
 * The hooks against a real in-process server, rendered by React under jsdom:
 * one shared store and one request for any number of readers, refetches
 * after sign-in, sign-out and account changes, on focus and reconnect
 * (throttled), tabs kept in step, server rendering that fetches nothing.
 */
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react'
import { createElement, type ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as z from 'zod/mini'
import { createAuthClient } from '../src/index.js'
import { browser } from './browser.js'
import { BASE, email, PASSWORD, setup, testServer } from './fixtures.js'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function clientFor(context: ReturnType<typeof setup>, fetchImpl = context.browser.fetch) {
  return createAuthClient<typeof context.server>({ baseURL: BASE, fetch: fetchImpl })
}

type Client = ReturnType<typeof clientFor>

/** A component showing who is signed in, as a header would. */
function whoIsSignedIn(client: Client, testId: string): () => ReactElement {
  return function WhoIsSignedIn() {
    const { data, isPending, error } = client.useSession()
    const text = isPending ? 'loading' : error ? `error: ${error.code}` : (data?.user.name ?? 'signed out')
    return createElement('span', { 'data-testid': testId }, text)
  }
}

function app(client: Client, count: number): ReactElement {
  const readers = Array.from({ length: count }, (_, index) => createElement(whoIsSignedIn(client, `reader-${index}`)))
  return createElement('div', null, ...readers)
}

function texts(count: number): string[] {
  return Array.from({ length: count }, (_, index) => screen.getByTestId(`reader-${index}`).textContent ?? '')
}

describe('useSession', () => {
  it('sign-up makes the session appear in every mounted reader; sign-out clears it; one request per change', async () => {
    const context = setup()
    const client = clientFor(context)
    render(app(client, 4))
    expect(texts(4)).toEqual(['loading', 'loading', 'loading', 'loading'])
    await waitFor(() => expect(texts(4)).toEqual(['signed out', 'signed out', 'signed out', 'signed out']))
    expect(context.browser.count('/get-session')).toBe(1)

    await act(() => client.signUp.email({ name: 'Ada', email: email(), password: PASSWORD, seats: 1 }))
    await waitFor(() => expect(texts(4)).toEqual(['Ada', 'Ada', 'Ada', 'Ada']))
    expect(context.browser.count('/get-session')).toBe(2)

    await act(() => client.signOut())
    await waitFor(() => expect(texts(4)).toEqual(['signed out', 'signed out', 'signed out', 'signed out']))
    expect(context.browser.count('/get-session')).toBe(3)
  })

  it('readers mounted later share the answer instead of asking again', async () => {
    const context = setup()
    const client = clientFor(context)
    const first = render(app(client, 1))
    await waitFor(() => expect(texts(1)).toEqual(['signed out']))
    first.unmount()
    render(app(client, 3))
    expect(texts(3)).toEqual(['signed out', 'signed out', 'signed out'])
    expect(context.browser.count('/get-session')).toBe(1)
  })

  it('concurrent refetches make one request', async () => {
    const context = setup()
    const client = clientFor(context)
    const { result } = renderHook(() => client.useSession())
    await waitFor(() => expect(result.current.isPending).toBe(false))
    await act(() => Promise.all([result.current.refetch(), result.current.refetch(), result.current.refetch()]))
    expect(context.browser.count('/get-session')).toBe(2)
  })

  it('follows update-user and change-email without being asked', async () => {
    const context = setup()
    const client = clientFor(context)
    await client.signUp.email({ name: 'Ada', email: email(), password: PASSWORD, seats: 1 })
    const { result } = renderHook(() => client.useSession())
    await waitFor(() => expect(result.current.data?.user.name).toBe('Ada'))

    await act(() => client.updateUser({ name: 'Ada Lovelace', plan: 'pro' }))
    await waitFor(() => expect(result.current.data?.user).toMatchObject({ name: 'Ada Lovelace', plan: 'pro' }))
    const newAddress = email()
    await act(() => client.changeEmail({ newEmail: newAddress }))
    await waitFor(() => expect(result.current.data?.user.email).toBe(newAddress))
  })

  it('refetches on focus, visibility and reconnect, at most once per throttle window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const context = setup()
    const client = clientFor(context)
    await client.signUp.email({ name: 'Ada', email: email(), password: PASSWORD, seats: 1 })
    const { result } = renderHook(() => client.useSession())
    await waitFor(() => expect(result.current.data?.user.name).toBe('Ada'))
    expect(context.browser.count('/get-session')).toBe(1)

    // Just loaded: focus within the throttle window asks nothing.
    act(() => void window.dispatchEvent(new Event('focus')))
    expect(context.browser.count('/get-session')).toBe(1)

    // Meanwhile the user signs out everywhere from another device (no client of this browser hears of it).
    const elsewhere = browser(context.server)
    const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    await elsewhere.fetch(`${BASE}/api/auth/sign-in/email`, json({ email: result.current.data?.user.email, password: PASSWORD }))
    expect((await elsewhere.fetch(`${BASE}/api/auth/revoke-sessions`, json({}))).status).toBe(200)

    vi.setSystemTime(Date.now() + 5_000)
    act(() => {
      window.dispatchEvent(new Event('focus'))
      window.dispatchEvent(new Event('focus'))
    })
    await waitFor(() => expect(result.current.data).toBeNull())
    expect(context.browser.count('/get-session')).toBe(2)

    vi.setSystemTime(Date.now() + 5_000)
    expect(document.visibilityState).toBe('visible')
    act(() => void document.dispatchEvent(new Event('visibilitychange')))
    await waitFor(() => expect(context.browser.count('/get-session')).toBe(3))

    vi.setSystemTime(Date.now() + 5_000)
    act(() => void window.dispatchEvent(new Event('online')))
    await waitFor(() => expect(context.browser.count('/get-session')).toBe(4))
  })

  it('stops listening once nothing reads the session', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const opened: BroadcastChannel[] = []
    const close = vi.spyOn(BroadcastChannel.prototype, 'close')
    vi.stubGlobal(
      'BroadcastChannel',
      class extends BroadcastChannel {
        constructor(name: string) {
          super(name)
          opened.push(this)
        }
      },
    )
    const watched = ['focus', 'online', 'visibilitychange']
    const targets = [window, document].map((target) => ({
      add: vi.spyOn(target, 'addEventListener'),
      remove: vi.spyOn(target, 'removeEventListener'),
    }))
    /** The focus, reconnect and visibility listeners added and not removed since, as `type` per listener. */
    const live = () =>
      targets.flatMap(({ add, remove }) =>
        add.mock.calls
          .filter(([type, listener]) => watched.includes(type) && !remove.mock.calls.some((call) => call[0] === type && call[1] === listener))
          .map(([type]) => type),
      )

    const context = setup()
    const client = clientFor(context)
    const { result, unmount } = renderHook(() => client.useSession())
    await waitFor(() => expect(result.current.isPending).toBe(false))
    expect(live().sort()).toEqual(['focus', 'online', 'visibilitychange'])
    expect(opened).toHaveLength(1)
    expect(close.mock.contexts).not.toContain(opened[0])

    unmount()
    expect(live()).toEqual([])
    expect(close.mock.contexts).toContain(opened[0])
    vi.setSystemTime(Date.now() + 60_000)
    window.dispatchEvent(new Event('focus'))
    window.dispatchEvent(new Event('online'))
    expect(context.browser.count('/get-session')).toBe(1)
  })

  it('a change the server made shows even when its answer fails the shape check, here and in the other tabs', async () => {
    // The server signs out (clears the cookie) but answers in a shape the client does not expect: a version skew.
    const server = testServer({
      after: [{ matcher: (ctx) => ctx.path === '/sign-out', handler: () => ({ returned: { success: 'yes' } }) }],
    })
    const context = { server, browser: browser(server) }
    const first = clientFor(context)
    const second = clientFor(context)
    await first.signUp.email({ name: 'Ada', email: email(), password: PASSWORD, seats: 1 })
    render(createElement('div', null, createElement(whoIsSignedIn(first, 'first')), createElement(whoIsSignedIn(second, 'second'))))
    await waitFor(() => expect([screen.getByTestId('first').textContent, screen.getByTestId('second').textContent]).toEqual(['Ada', 'Ada']))

    const { error } = await act(() => first.signOut())
    expect(error).toMatchObject({ status: 200, code: 'CLIENT_VALIDATION_ERROR' })
    expect(context.browser.cookies.size).toBe(0)
    await waitFor(() => expect(screen.getByTestId('first').textContent).toBe('signed out'))
    await waitFor(() => expect(screen.getByTestId('second').textContent).toBe('signed out'))
    expect(context.browser.count('/get-session')).toBe(4)
  })

  it('a response of the wrong shape reaches the hook as a client-side validation error', async () => {
    const server = testServer({
      after: [{ matcher: (ctx) => ctx.path === '/get-session', handler: () => ({ returned: { session: 'yes', user: 'ada' } }) }],
    })
    const context = { server, browser: browser(server) }
    const client = clientFor(context)
    await client.signUp.email({ name: 'Ada', email: email(), password: PASSWORD, seats: 1 })
    render(app(client, 2))
    await waitFor(() => expect(texts(2)).toEqual(['error: CLIENT_VALIDATION_ERROR', 'error: CLIENT_VALIDATION_ERROR']))
    const { result } = renderHook(() => client.useSession())
    expect(result.current.data).toBeNull()
    expect(result.current.error?.issues?.map((issue) => issue.path)).toEqual(['response.session', 'response.user'])
  })
})

describe('hook names', () => {
  it('are plain functions, and may not clash with a route', async () => {
    const context = setup()
    const { useSession } = clientFor(context)
    const { result } = renderHook(() => useSession())
    await waitFor(() => expect(result.current).toMatchObject({ data: null, error: null, isPending: false }))

    const ok = { endpoint: 'ok', method: 'GET', path: '/ok', output: z.looseObject({}) } as const
    expect(() => createAuthClient({ baseURL: BASE, plugins: [{ id: 'clash', routes: { useSession: ok } }] })).toThrow(
      '"useSession" is already taken by a route',
    )
  })
})

describe('tabs', () => {
  /** Two tabs of one browser: separate clients and stores, shared cookies. */
  function twoTabs() {
    const context = setup()
    return { context, first: clientFor(context), second: clientFor(context) }
  }

  it('a sign-in and a sign-out in one tab show in the other (BroadcastChannel)', async () => {
    const { first, second } = twoTabs()
    render(createElement('div', null, createElement(whoIsSignedIn(first, 'first')), createElement(whoIsSignedIn(second, 'second'))))
    await waitFor(() => expect(screen.getByTestId('second').textContent).toBe('signed out'))

    await act(() => first.signUp.email({ name: 'Ada', email: email(), password: PASSWORD, seats: 1 }))
    await waitFor(() => expect(screen.getByTestId('second').textContent).toBe('Ada'))
    await act(() => first.signOut())
    await waitFor(() => expect(screen.getByTestId('second').textContent).toBe('signed out'))
    expect(screen.getByTestId('first').textContent).toBe('signed out')
  })

  it('without BroadcastChannel, the storage event carries the news', async () => {
    vi.stubGlobal('BroadcastChannel', undefined)
    const { context, first, second } = twoTabs()
    const { result } = renderHook(() => second.useSession())
    await waitFor(() => expect(result.current.data).toBeNull())
    expect(context.browser.count('/get-session')).toBe(1)

    await first.signUp.email({ name: 'Ada', email: email(), password: PASSWORD, seats: 1 })
    const key = `gatehouse:${BASE}/api/auth`
    const message = localStorage.getItem(key)
    expect(JSON.parse(message ?? 'null')).toMatchObject({ stores: ['session'] })
    // The browser delivers `storage` to the other tabs: this test plays that part.
    act(() => void window.dispatchEvent(new StorageEvent('storage', { key, newValue: message })))
    await waitFor(() => expect(result.current.data?.user.name).toBe('Ada'))
  })
})

describe('server rendering', () => {
  /** A signed-in browser, and the session read on the server for its next page (a client over the handler, forwarding its cookie). */
  async function signedIn() {
    const context = setup()
    const inBrowser = clientFor(context)
    await inBrowser.signUp.email({ name: 'Ada', email: email(), password: PASSWORD, seats: 1 })
    const cookie = [...context.browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const onServer = clientFor(context, (input, init) => context.server.handler(new Request(input, init)))
    const { data: session } = await onServer.getSession(undefined, { headers: { cookie } })
    expect(session?.user.name).toBe('Ada')
    return { context, inBrowser, session, requestsBefore: context.browser.requests.length }
  }

  /** Server HTML put in the page, then hydrated; console errors are React's hydration mismatches. */
  async function hydrate(html: string, element: ReactElement) {
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.append(container)
    const errors = vi.spyOn(console, 'error')
    render(element, { container, hydrate: true })
    return errors
  }

  it('a hook given the initial session renders it on the server; the store is seeded on hydration, without a request', async () => {
    const { context, inBrowser, session, requestsBefore } = await signedIn()
    const Header = whoIsSignedIn(inBrowser, 'header')
    const Page = () => {
      const { data, isPending } = inBrowser.useSession({ initialData: session })
      const title = isPending ? 'loading' : (data?.user.name ?? 'nobody')
      return createElement('main', null, createElement('h1', null, title), createElement(Header))
    }
    const html = renderToString(createElement(Page))
    expect(html).toContain('<h1>Ada</h1>')
    // A reader given nothing renders the pending state on the server.
    expect(html).toContain('loading')
    expect(context.browser.requests.length).toBe(requestsBefore)

    const errors = await hydrate(html, createElement(Page))
    await waitFor(() => expect(screen.getByTestId('header').textContent).toBe('Ada'))
    expect(screen.getByRole('heading').textContent).toBe('Ada')
    expect(context.browser.requests.length).toBe(requestsBefore)
    expect(errors).not.toHaveBeenCalled()
  })

  it('<InitialState> gives it to every hook below, on the server and in hydration', async () => {
    const { context, inBrowser, session, requestsBefore } = await signedIn()
    const page = createElement(inBrowser.InitialState, { session }, app(inBrowser, 3))
    const html = renderToString(page)
    expect(html.match(/>Ada</g)).toHaveLength(3)

    const errors = await hydrate(html, page)
    expect(texts(3)).toEqual(['Ada', 'Ada', 'Ada'])
    await act(() => Promise.resolve())
    expect(context.browser.requests.length).toBe(requestsBefore)
    expect(errors).not.toHaveBeenCalled()
  })

  it('a signed-out page hydrates signed out, without a request', async () => {
    const context = setup()
    const client = clientFor(context)
    const page = createElement(client.InitialState, { session: null }, app(client, 2))
    const html = renderToString(page)
    expect(html).toContain('signed out')
    await hydrate(html, page)
    await act(() => Promise.resolve())
    expect(texts(2)).toEqual(['signed out', 'signed out'])
    expect(context.browser.requests).toEqual([])
  })

  it('renders the pending state on the server when given nothing, and fetches nothing there', () => {
    const context = setup()
    const client = clientFor(context)
    expect(renderToString(app(client, 2))).toContain('loading')
    expect(context.browser.requests).toEqual([])
  })
})
