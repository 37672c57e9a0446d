/**
 * @module
 * The app's own guard for its routes: the session Gatehouse's cookie names,
 * read in-process through `auth.api.getSession` (no HTTP round trip), put on
 * `res.locals` for the route; a request without one answers 401.
 */
import { toHeaders } from '@gatehouse/core/node'
import type { NextFunction, Request, Response } from 'express'
import { auth } from './auth.js'

export type Session = NonNullable<Awaited<ReturnType<typeof auth.api.getSession>>>

/**
 * @example
 * app.get('/api/me', requireSession, (_req, res) => res.json({ user: res.locals.session.user }))
 */
export async function requireSession(req: Request, res: Response<unknown, { session: Session }>, next: NextFunction): Promise<void> {
  const session = await auth.api.getSession({ headers: toHeaders(req.headers) })
  if (!session) {
    res.status(401).json({ code: 'UNAUTHORIZED', message: 'Sign in first' })
    return
  }
  res.locals.session = session
  next()
}
