/**
 * @module
 * The get-session answer with a plugin's custom fields (docs/custom-session.md):
 * `{ session, user, ...extra }`. The cookie cache holds the customised answer,
 * so a cache hit answers the same fields without calling the plugin's
 * function; a cache written without them (by sign-in, update-user, ...) is
 * rewritten with them on the next get-session. When the customised payload
 * would not fit the cookie, nothing is cached (one warning per auth
 * instance) and every get-session takes the store path.
 *
 * Only get-session is customised: list-sessions and the session that
 * middlewares hand to routes stay core's rows.
 */
import type { EndpointContext } from '../endpoint/context.js'
import type { AuthContext, GatehousePlugin, SessionExtra } from '../types/contract.js'
import type { SessionWithUser } from '../types/rows.js'
import { carriesOtherCredential, sameSource } from './credentials.js'
import { resolveSession, type ResolveOptions } from './resolve-session.js'
import { readCachedAnswer, setCookieCache } from './session-cookies.js'
import { sessionOptions } from './session-options.js'

/** Names the answer already uses: a plugin cannot replace core's rows through them. */
const RESERVED = new Set(['session', 'user'])

/** Auth instances that already warned about an oversize customised cache. */
const warned = new WeakSet<AuthContext>()

type Customizer = NonNullable<GatehousePlugin['customizeSession']>

function customizer(auth: AuthContext): Customizer | undefined {
  for (const plugin of auth.plugins) if (plugin.customizeSession) return plugin.customizeSession
  return undefined
}

/**
 * What GET /get-session answers: the caller's `{ session, user }` and the
 * plugin's fields, or null without a session. Statically core's
 * `SessionWithUser`: the fields' type comes from the plugin's `$sessionFields`
 * (see `AuthEndpoints`).
 *
 * @example
 * const answer = await sessionAnswer(ctx, { disableCookieCache: false })
 */
export async function sessionAnswer(ctx: EndpointContext, options: ResolveOptions): Promise<SessionWithUser | null> {
  const customize = customizer(ctx.auth)
  if (!customize) return resolveSession(ctx, options)
  const { cookieCache } = sessionOptions(ctx.options)
  // An API key or a bearer token names its own session: the browser's cache cookie is not read for it, nor written.
  const cached = cookieCache.enabled && !(await carriesOtherCredential(ctx))
  if (cached && !options.disableCookieCache) {
    const answer = readCachedAnswer(ctx)
    if (answer?.extra) return withExtra(answer, answer.extra)
  }
  const data = await resolveSession(ctx, { ...options, skipCacheWrite: true })
  if (!data) return null
  const extra = ownFields(await customize(data, ctx))
  if (cached && !setCookieCache(ctx, data, extra) && !warned.has(ctx.auth)) {
    warned.add(ctx.auth)
    ctx.logger.warn('custom session fields do not fit the cookie cache: get-session reads the store on every call', {
      fields: Object.keys(extra).length,
    })
  }
  return withExtra(data, extra)
}

function ownFields(extra: SessionExtra): SessionExtra {
  const fields: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(extra)) if (!RESERVED.has(name) && value !== undefined) fields[name] = value
  return fields
}

function withExtra(data: SessionWithUser, extra: SessionExtra): SessionWithUser {
  // The answer keeps how the session was established: after-hooks read it (no JWT for an API key's session).
  return sameSource(data, { session: data.session, user: data.user, ...extra })
}
