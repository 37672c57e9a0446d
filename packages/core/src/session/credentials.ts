/**
 * @module
 * Credentials other than the session cookie (docs/sessions.md#credentials-other-than-the-cookie):
 * a plugin's own (an API key header, through `authenticate`) and, with the
 * `bearer` option, `Authorization: Bearer <session token>`. This module finds
 * them for a call, once per call, and remembers for each session it hands out
 * how that session was established, so the middlewares can refuse a
 * credential that must not change credentials.
 */
import { verifySignedCookieValue } from '../cookies/cookies.js'
import { sharedKeys } from '../crypto/keys.js'
import type { EndpointContext } from '../endpoint/context.js'
import type { RequestCredential, SessionSource } from '../types/contract.js'
import type { SessionWithUser } from '../types/rows.js'

export interface SessionOrigin {
  readonly source: SessionSource
  readonly mayChangeCredentials: boolean
}

const COOKIE: SessionOrigin = { source: 'cookie', mayChangeCredentials: true }
const BEARER: SessionOrigin = { source: 'bearer', mayChangeCredentials: true }

const origins = new WeakMap<SessionWithUser, SessionOrigin>()

/**
 * How `session` was established: `'cookie'` (also for a session built
 * elsewhere), `'bearer'`, or the plugin credential's source (`'api-key'`).
 *
 * @example
 * if (sessionSource(ctx.session).source === 'api-key') ctx.responseHeaders.set('cache-control', 'no-store')
 */
export function sessionSource(session: SessionWithUser): SessionOrigin {
  return origins.get(session) ?? COOKIE
}

/** `copy` (a new object for the same session, e.g. with custom fields) was established as `session` was. */
export function sameSource<T extends SessionWithUser>(session: SessionWithUser, copy: T): T {
  const origin = origins.get(session)
  if (origin) origins.set(copy, origin)
  return copy
}

/** Records that `session` came from the bearer header; cookie sessions need no entry. */
export function markBearer(session: SessionWithUser): SessionWithUser {
  origins.set(session, BEARER)
  return session
}

/** One lookup per call, keyed by the call's cookie jar: a credential with a use count is spent once, however often the session is read. */
const asked = new WeakMap<object, Promise<RequestCredential | undefined>>()

/**
 * The first plugin credential the request carries, or undefined. Throws the
 * plugin's refusal (an AuthError) for a credential that is present but refused.
 * Never on `cookieOnly` routes.
 */
export function pluginCredential(ctx: EndpointContext): Promise<RequestCredential | undefined> {
  if (ctx.metadata?.cookieOnly) return Promise.resolve(undefined)
  const plugins = ctx.auth.plugins.filter((plugin) => plugin.authenticate)
  if (plugins.length === 0) return Promise.resolve(undefined)
  let found = asked.get(ctx.cookies)
  if (!found) {
    found = (async () => {
      for (const plugin of plugins) {
        const credential = await plugin.authenticate?.(ctx)
        if (credential) {
          origins.set(credential.session, { source: credential.source, mayChangeCredentials: credential.mayChangeCredentials })
          return credential
        }
      }
      return undefined
    })()
    asked.set(ctx.cookies, found)
  }
  return found
}

const BEARER_SCHEME = /^bearer\s+/i

/**
 * The session token of an `Authorization: Bearer` header, when the `bearer`
 * option is on and the route is not `cookieOnly`: the signed value the session
 * cookie would hold (what `set-auth-token` hands out), checked with the session
 * cookie's own key. Null when there is none or it does not verify; the caller
 * then reads the cookie as usual: a header nobody could have set cross-site
 * gains an attacker nothing (docs/sessions.md#bearer-tokens).
 */
export function bearerSessionToken(ctx: EndpointContext): string | null {
  if (!ctx.options.bearer || ctx.metadata?.cookieOnly) return null
  const header = ctx.headers.get('authorization')
  if (!header || !BEARER_SCHEME.test(header)) return null
  const value = header.replace(BEARER_SCHEME, '').trim()
  // Some clients percent-encode what they copied out of a cookie.
  const decoded = value.includes('%') ? safeDecode(value) : value
  return verifySignedCookieValue(decoded, sharedKeys(ctx.secrets, 'cookie:session_token'))
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/**
 * Whether the call carries a credential other than the cookie that decides
 * its session: then the cookie cache is neither read nor written for it.
 *
 * @example
 * if (!(await carriesOtherCredential(ctx))) cached = readCachedAnswer(ctx)
 */
export async function carriesOtherCredential(ctx: EndpointContext): Promise<boolean> {
  return (await pluginCredential(ctx)) !== undefined || bearerSessionToken(ctx) !== null
}

/**
 * The unhashed session token the call carries: the bearer header's when the
 * `bearer` option is on and it verifies, else the session cookie's.
 *
 * @example
 * const token = requestSessionToken(ctx) // sign-out ends this session
 */
export function requestSessionToken(ctx: EndpointContext): string | null {
  return bearerSessionToken(ctx) ?? ctx.cookies.getSigned('session_token')
}
