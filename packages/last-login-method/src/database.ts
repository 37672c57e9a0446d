/**
 * @module
 * `storeInDatabase: true`: the user row's `lastLoginMethod`
 * (docs/last-login-method.md#storing-it-on-the-user), written two ways.
 *
 * - In the session's own transaction, from a before-hook on `session`
 *   create, when the route creates the session through its request's store
 *   (sign-up, magic links, the two-factor second step): the field and the
 *   session commit or roll back together.
 * - Otherwise, once the answer is known to set the session cookie (the
 *   password sign-in, social and SSO callbacks, passkeys, ...): the session
 *   row named by the new cookie says whose row to update. That write follows
 *   a committed sign-in, so its failure is logged and the sign-in stands.
 *
 * Calls are told apart by their cookie jar, the one object a request's
 * handler, database hooks and request hooks all share.
 */
import { hashSessionToken, type CookieJar, type DatabaseHookContext, type EndpointContext, type HookContext, type Row } from '@gatehouse/core'

export type MethodOf = (ctx: EndpointContext) => Promise<string | null>

/** Calls whose method was written in their session's transaction, once that committed. */
const recorded = new WeakSet<CookieJar>()

/**
 * The request behind a database write, when there is one. Core hands the
 * endpoint context to hooks as `unknown` (a store may also be used outside
 * any request); the fields read here are checked before it is used.
 */
function endpointOf(hook: DatabaseHookContext): EndpointContext | null {
  const endpoint = hook.endpoint
  if (typeof endpoint !== 'object' || endpoint === null) return null
  const { path, cookies, params } = endpoint as Partial<EndpointContext>
  if (typeof path !== 'string' || typeof cookies !== 'object' || cookies === null || typeof params !== 'object') return null
  return endpoint as EndpointContext
}

/**
 * `databaseHooks.session.create.before`: updates the user row through the
 * store the session is written with, inside its transaction when there is
 * one. A failure here is the transaction's: the session is not created.
 */
export function recordInTransaction(methodOf: MethodOf) {
  return async (data: Row, hook: DatabaseHookContext): Promise<void> => {
    const endpoint = endpointOf(hook)
    if (!endpoint || typeof data.userId !== 'string') return
    const method = await methodOf(endpoint)
    if (method === null) return
    const db = hook.db ?? endpoint.db
    await db.update({ model: 'user', where: { field: 'id', value: data.userId }, update: { lastLoginMethod: method } })
    const jar = endpoint.cookies
    await db.afterCommit(async () => {
      recorded.add(jar)
    })
  }
}

/**
 * After an answer that set the session cookie: updates the session's user
 * unless the session's transaction already did. Logged, never thrown: the
 * user is signed in whatever happens here.
 */
export async function recordAfterAnswer(ctx: HookContext, sessionToken: string, method: string): Promise<void> {
  if (recorded.has(ctx.cookies)) return
  const { db, logger } = ctx.auth
  try {
    const session = await db.findOne<Row>({ model: 'session', where: { field: 'token', value: hashSessionToken(sessionToken) } })
    const userId = session?.userId
    if (typeof userId !== 'string') {
      logger.warn('lastLoginMethod: the new session was not found; lastLoginMethod not updated', { path: ctx.path })
      return
    }
    await db.update({ model: 'user', where: { field: 'id', value: userId }, update: { lastLoginMethod: method } })
  } catch (error) {
    logger.error('lastLoginMethod: lastLoginMethod not updated', { path: ctx.path, error: error instanceof Error ? error.message : String(error) })
  }
}
