/**
 * Fixtures for the magic-link flows: an auth with the plugin on the
 * in-memory adapter (or a given database), a mailbox capturing every link,
 * and request shorthands that return status, body, location and cookies.
 */
import { accountAuth, cookieHeader } from '../../core/test/accounts.js'
import { BASE, request } from '../../core/test/helpers.js'
import type { MagicLinkMail, MagicLinkOptions } from '../src/options.js'
import { magicLink } from '../src/plugin.js'

export { BASE, cookieHeader }

export type LinkAuth = ReturnType<typeof linkAuth>

export function linkAuth(options: Partial<MagicLinkOptions> = {}, core: Parameters<typeof accountAuth>[0] = {}) {
  const links: MagicLinkMail[] = []
  const plugin = magicLink({
    sendMagicLink: (mail) => {
      links.push(mail)
    },
    ...options,
  })
  const auth = accountAuth({ ...core, plugins: [plugin] })
  // `idle`: with sign-up off the mail goes after the answer; wait for it before reading `links`.
  return Object.assign(auth, { links, lastLink: () => links[links.length - 1], idle: () => plugin.idle() })
}

/** POST /sign-in/magic-link from the app's origin. */
export async function requestLink(auth: LinkAuth, json: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await auth.handler(request('/api/auth/sign-in/magic-link', { json, headers: { origin: BASE, ...headers } }))
  return { status: response.status, body: await response.json() }
}

/** Opens a mailed link (absolute URL) as a browser would, optionally with cookies. */
export async function openLink(auth: LinkAuth, url: string, cookie = '') {
  const response = await auth.handler(new Request(url, { headers: cookie ? { cookie } : {} }))
  return {
    status: response.status,
    location: response.headers.get('location'),
    cookie: cookieHeader(response),
    setCookies: response.headers.getSetCookie(),
    response,
  }
}

/** The link's query parameters. */
export function linkParams(url: string): URLSearchParams {
  return new URL(url).searchParams
}

export async function getSession(auth: LinkAuth, cookie: string) {
  const response = await auth.handler(request('/api/auth/get-session', { headers: { cookie } }))
  return response.json()
}
