/**
 * @module
 * The API: Gatehouse at `/api/auth/*` and the app's own `/api/me`, with
 * CORS for the front end's origin. Hono's cors middleware and Gatehouse's
 * trustedOrigins are both needed: the first lets the browser read answers
 * and send cookies across origins, the second lets Gatehouse accept the
 * cookie-bearing POSTs (sign-in, sign-out) that come from there.
 */
import type { HttpBindings } from '@hono/node-server'
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { createMiddleware } from 'hono/factory'
import { auth, webOrigin } from './auth.js'

type SessionWithUser = NonNullable<Awaited<ReturnType<typeof auth.api.getSession>>>

export interface ApiEnv {
  Bindings: HttpBindings
  Variables: { user: SessionWithUser['user'] | null; session: SessionWithUser['session'] | null }
}

/** Reads the session in-process (no HTTP round trip) and puts it on the context, or nulls when signed out. */
const session = createMiddleware<ApiEnv>(async (c, next) => {
  const found = await auth.api.getSession({ headers: c.req.raw.headers })
  c.set('user', found?.user ?? null)
  c.set('session', found?.session ?? null)
  await next()
})

export const api = new Hono<ApiEnv>()

// The exact origin with credentials: a wildcard origin may not carry cookies (Fetch standard, CORS protocol).
api.use('/api/*', cors({ origin: webOrigin, credentials: true }))

// The socket's address, so rate limits count per client (docs/rate-limits.md#web-handlers).
api.on(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], '/api/auth/*', (c) => auth.handler(c.req.raw, { ip: c.env.incoming.socket.remoteAddress }))

api.get('/api/me', session, (c) => {
  const user = c.get('user')
  if (!user) return c.json({ code: 'UNAUTHORIZED', message: 'Sign in first' }, 401)
  return c.json({ user: { id: user.id, name: user.name, email: user.email, emailVerified: user.emailVerified }, expiresAt: c.get('session')?.expiresAt })
})
