/**
 * @module
 * `lastLoginMethod(options)`: remembers how each user last signed in
 * (docs/last-login-method.md). No routes: one request hook after every call,
 * and with `storeInDatabase` a user field and a database hook (database.ts).
 *
 * An answer counts as a sign-in when it sets the session cookie: a refused
 * sign-in throws before request after-hooks run, and a two-factor pending
 * sign-in sets no session cookie. The call's method (methods.ts) is then
 * written to the method cookie (cookies.ts), and to the user row.
 *
 * Two-factor sign-ins (docs/last-login-method.md#two-factor-sign-ins): the
 * first step keeps its method in a signed pending cookie; the second step
 * records that method, so a user who signs in with a username and a TOTP
 * code is remembered as `username`. A second step with no pending method
 * changes nothing.
 */
import { definePlugin, type CookieJar, type HookContext } from '@gatehouse/core'
import { dropPendingMethod, holdPendingMethod, methodCookie, pendingMethod, sessionCookieSet, startsSecondFactor } from './cookies.js'
import { recordAfterAnswer, recordInTransaction } from './database.js'
import { isSecondFactorStep, resolveLoginMethod } from './methods.js'
import { resolveOptions, type LastLoginMethodOptions, type LoginMethodContext, type ResolvedLastLoginMethodOptions } from './options.js'
import { lastLoginMethodSchema } from './schema.js'

type CallContext = LoginMethodContext & Pick<HookContext, 'cookies' | 'auth'>

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   emailAndPassword: { enabled: true },
 *   plugins: [lastLoginMethod({ storeInDatabase: true })],
 * })
 */
export function lastLoginMethod(options: LastLoginMethodOptions = {}) {
  const resolved = resolveOptions(options)
  // One answer per call, whether the database hook or the request hook asks first: a resolver runs once.
  const methods = new WeakMap<CookieJar, Promise<string | null>>()
  const methodOf = (ctx: CallContext): Promise<string | null> => {
    let method = methods.get(ctx.cookies)
    if (!method) {
      method = isSecondFactorStep(ctx.path) ? Promise.resolve(pendingMethod(ctx)) : resolveLoginMethod(resolved, ctx, ctx.auth.logger)
      methods.set(ctx.cookies, method)
    }
    return method
  }

  const afterCall = async (ctx: HookContext): Promise<void> => {
    const session = sessionCookieSet(ctx.cookies)
    if (!session) {
      // The first factor passed and the second is pending: keep its method for the step that completes it.
      if (startsSecondFactor(ctx.cookies)) {
        const method = await methodOf(ctx)
        if (method === null) dropPendingMethod(ctx)
        else holdPendingMethod(ctx, method)
      }
      return
    }
    const method = await methodOf(ctx)
    // A completed sign-in ends any pending one; a session cookie merely refreshed by another route leaves it be.
    if (method !== null || isSecondFactorStep(ctx.path)) dropPendingMethod(ctx)
    if (method === null) return
    if (resolved.storeInDatabase) await recordAfterAnswer(ctx, session.token, method)
    if (await mayStoreCookie(resolved, ctx, method)) {
      ctx.responseHeaders.append('set-cookie', methodCookie(resolved.cookieName, method, resolved.maxAge, session.line))
    }
  }

  return definePlugin({
    id: 'last-login-method',
    hooks: { after: [{ matcher: () => true, handler: afterCall }] },
    // The hint names a way in, never who: a POST carrying only it (a script's cookie jar after sign-out) carries no credential.
    inertCookies: [resolved.cookieName],
    ...(resolved.storeInDatabase
      ? { schema: lastLoginMethodSchema, databaseHooks: { session: { create: { before: recordInTransaction(methodOf) } } } }
      : {}),
  })
}

/** The application's consent check (`beforeStoreCookie`); a throw is a refusal, logged. */
async function mayStoreCookie(options: ResolvedLastLoginMethodOptions, ctx: HookContext, method: string): Promise<boolean> {
  if (!options.beforeStoreCookie) return true
  try {
    return (await options.beforeStoreCookie(ctx, method)) === true
  } catch (error) {
    ctx.auth.logger.error('lastLoginMethod: beforeStoreCookie threw; no cookie set', { path: ctx.path, error: error instanceof Error ? error.name : typeof error })
    return false
  }
}
