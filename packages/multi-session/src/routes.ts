/**
 * @module
 * The multi-session routes (docs/multi-session.md#routes), named and shaped as the leading library's:
 *
 * - GET /multi-session/list-device-sessions: `[{ session, user }]`, one per
 *   account this browser holds a live session of, read from the store.
 * - POST /multi-session/set-active `{ sessionToken }`: the account whose
 *   session this browser holds becomes the active one (its session cookie
 *   is set); `{ session, user }`.
 * - POST /multi-session/revoke `{ sessionToken }` (signed in): that
 *   session ends (deleted, its cookie cleared); when it was the active one,
 *   another held account becomes active, or the browser is signed out.
 *   `{ status: true }`.
 *
 * `sessionToken` is the session's public identifier (`session.token` in
 * the list), never the secret token: the browser's own signed cookie holds
 * that. An unknown, forged or dead one is 401 INVALID_SESSION_TOKEN.
 */
import {
  AuthError,
  clearSessionCookies,
  defineEndpoint,
  deleteSessions,
  hashSessionToken,
  publicRow,
  readSessionToken,
  sessionMiddleware,
  setSessionCookies,
  type EndpointContext,
  type Row,
  type SessionWithUser,
} from '@gatehouse/core'
import { z } from 'zod'
import { heldSessions, liveSession, multiCookie } from './cookies.js'
import { MultiSessionErrors } from './errors.js'

const tokenBody = z.lazy(() => z.object({ sessionToken: z.string().max(256) }))

function visible(ctx: EndpointContext, found: SessionWithUser) {
  return {
    session: publicRow(ctx.auth.schema, 'session', found.session as SessionWithUser['session'] & Row),
    user: publicRow(ctx.auth.schema, 'user', found.user as SessionWithUser['user'] & Row),
  }
}

/** The held session a `sessionToken` names: its cookie and live session, or 401 (a dead one's cookie is cleared). */
async function heldSession(ctx: EndpointContext, sessionToken: string): Promise<{ cookie: string; token: string; found: SessionWithUser }> {
  const cookie = multiCookie(sessionToken)
  const token = ctx.cookies.getSigned(cookie)
  if (!token) throw new AuthError(MultiSessionErrors.INVALID_SESSION_TOKEN)
  const found = await liveSession(ctx.auth, token)
  if (!found) {
    ctx.cookies.delete(cookie)
    throw new AuthError(MultiSessionErrors.INVALID_SESSION_TOKEN)
  }
  return { cookie, token, found }
}

export const listDeviceSessions = defineEndpoint({
  method: 'GET',
  path: '/multi-session/list-device-sessions',
  handler: async (ctx) => {
    const seen = new Set<string>()
    const list: ReturnType<typeof visible>[] = []
    for (const held of heldSessions(ctx)) {
      const found = await liveSession(ctx.auth, held.token)
      if (!found || seen.has(found.user.id)) continue
      seen.add(found.user.id)
      list.push(visible(ctx, found))
    }
    return list
  },
})

export const setActiveSession = defineEndpoint({
  method: 'POST',
  path: '/multi-session/set-active',
  body: tokenBody,
  handler: async (ctx) => {
    const { token, found } = await heldSession(ctx, ctx.body.sessionToken)
    setSessionCookies(ctx, { ...found, token }, { dontRemember: false })
    return visible(ctx, found)
  },
})

export const revokeDeviceSession = defineEndpoint({
  method: 'POST',
  path: '/multi-session/revoke',
  body: tokenBody,
  use: [sessionMiddleware],
  handler: async (ctx) => {
    const { cookie, token } = await heldSession(ctx, ctx.body.sessionToken)
    await deleteSessions(ctx.auth, [hashSessionToken(token)])
    ctx.cookies.delete(cookie)
    if (readSessionToken(ctx) !== token) return { status: true }
    // The active account was signed out: the next one this browser holds takes its place.
    for (const held of heldSessions(ctx)) {
      if (held.token === token) continue
      const next = await liveSession(ctx.auth, held.token)
      if (next) {
        setSessionCookies(ctx, { ...next, token: held.token }, { dontRemember: false })
        return { status: true }
      }
    }
    clearSessionCookies(ctx)
    return { status: true }
  },
})
