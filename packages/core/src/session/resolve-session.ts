/**
 * @module
 * Finds the caller's session (docs/sessions.md#reading-a-session-get-get-session):
 * from the cookie cache when allowed, else from secondary storage or the
 * database. An expired session is
 * deleted and its cookies cleared; a session whose last update is older than
 * `updateAge` is extended, unless the do-not-remember cookie is set or the
 * caller asked not to refresh. A plugin may set a session's hard end
 * (`sessionEnd`, docs/plugins.md#a-sessions-hard-end): past it the session is
 * ended like an expired one, and no refresh extends it beyond.
 */
import type { AuthContext, EndpointContext } from '../endpoint/context.js'
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import type { SessionWithUser } from '../types/rows.js'
import {
  clearSessionCookies,
  isDontRemember,
  readCachedSession,
  readSessionToken,
  setCookieCache,
  setSessionCookies,
} from './session-cookies.js'
import { bearerSessionToken, markBearer, pluginCredential } from './credentials.js'
import { sessionOptions } from './session-options.js'
import { deleteExpiredSession, findSession, refreshSession } from './session-store.js'

export interface ResolveOptions {
  /** Sensitive routes (password, email, delete, revoke) pass true: they never trust the cache. */
  readonly disableCookieCache?: boolean
  readonly disableRefresh?: boolean
  /** Leave the cookie cache to the caller: get-session writes it with its custom fields (docs/custom-session.md). */
  readonly skipCacheWrite?: boolean
}

export async function resolveSession(ctx: EndpointContext, options: ResolveOptions = {}): Promise<SessionWithUser | null> {
  // A plugin's credential (an API key) decides when present; its session is never written back.
  const credential = await pluginCredential(ctx)
  if (credential) return credential.session
  const bearer = bearerSessionToken(ctx)
  if (bearer) {
    // The cookie jar is left alone but for a refresh (whose cookie `set-auth-token` repeats): a browser's own cookie session is not the bearer's.
    const found = await storedSession(ctx, bearer, { ...options, skipCacheWrite: true }, false)
    return found ? markBearer(found) : null
  }
  const settings = sessionOptions(ctx.options)
  if (settings.cookieCache.enabled && !options.disableCookieCache) {
    const cached = readCachedSession(ctx)
    if (cached) return cached
  }
  const token = readSessionToken(ctx)
  if (!token) return null
  return storedSession(ctx, token, options)
}

/** The session of `token` from secondary storage or the database: ended when expired, refreshed when due. */
async function storedSession(ctx: EndpointContext, token: string, options: ResolveOptions, clearCookies = true): Promise<SessionWithUser | null> {
  const settings = sessionOptions(ctx.options)
  const auth = ctx.auth

  const found = await findSession(auth, token)
  if (!found) {
    if (clearCookies) clearSessionCookies(ctx)
    return null
  }
  const now = ctx.clock.now().getTime()
  const end = await hardEnd(auth, found)
  if (Math.min(found.session.expiresAt.getTime(), end?.getTime() ?? Infinity) <= now) {
    await deleteExpiredSession(auth, found.session.token)
    if (clearCookies) clearSessionCookies(ctx)
    return null
  }

  const due = now - found.session.updatedAt.getTime() >= settings.updateAge * 1000
  if (due && !options.disableRefresh && !isDontRemember(ctx)) {
    const refreshed = await refreshSession(auth, found, end ?? undefined)
    // get-session answers 401 when the refresh fails (the session vanished under us).
    if (!refreshed) {
      clearSessionCookies(ctx)
      throw new AuthError(CoreErrors.FAILED_TO_GET_SESSION)
    }
    setSessionCookies(ctx, { ...refreshed, token }, { cache: !options.skipCacheWrite })
    return refreshed
  }
  if (settings.cookieCache.enabled && !options.skipCacheWrite) setCookieCache(ctx, found)
  return found
}

/**
 * The earliest end the plugins set for this session, or null. Asked on every
 * read that reaches the store: an end may move closer (an admin who started
 * an impersonation was demoted), so it is not stored with the session.
 */
async function hardEnd(auth: AuthContext, found: SessionWithUser): Promise<Date | null> {
  let end: Date | null = null
  for (const plugin of auth.plugins) {
    const limit = plugin.sessionEnd ? await plugin.sessionEnd(found, auth) : null
    if (limit && (!end || limit.getTime() < end.getTime())) end = limit
  }
  return end
}

/**
 * A fresh session is a recent one, within `freshAge`; 0 turns the
 * check off. Recency is measured from the session's creation, i.e. from when
 * the user last proved who they are: `updatedAt` moves on every refresh
 * (with the default ages a daily visitor would stay "fresh" forever), so it
 * cannot say how long ago the password was typed.
 */
export function isFresh(ctx: Pick<EndpointContext, 'clock' | 'options'>, session: SessionWithUser): boolean {
  const { freshAge } = sessionOptions(ctx.options)
  if (freshAge === 0) return true
  return ctx.clock.now().getTime() - session.session.createdAt.getTime() < freshAge * 1000
}
