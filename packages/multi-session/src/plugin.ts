/**
 * @module
 * `multiSession(options)`: several signed-in accounts in one browser (docs/multi-session.md).
 *
 * After any call that set a new session cookie (a sign-in, a sign-up, a
 * second factor completed), the session is also kept in its own signed
 * cookie (cookies.ts), unless the browser already holds `maximumSessions`
 * accounts. A new session of an account the browser already holds replaces
 * the older one, which is deleted. `/sign-out` ends every session this
 * browser holds; `/multi-session/revoke` ends one.
 */
import { deleteSessions, definePlugin, hashSessionToken, sessionCookieSet, type HookContext } from '@gatehouse/core'
import { heldSessions, liveSession, multiCookieOfToken } from './cookies.js'
import { MultiSessionErrors } from './errors.js'
import { resolveMaximum, type MultiSessionOptions } from './options.js'
import { listDeviceSessions, revokeDeviceSession, setActiveSession } from './routes.js'

/**
 * @example
 * const auth = createAuth({ baseURL: 'https://app.example.com', plugins: [multiSession({ maximumSessions: 3 })] })
 */
export function multiSession(options: MultiSessionOptions = {}) {
  const maximum = resolveMaximum(options)

  const remember = async (ctx: HookContext): Promise<void> => {
    const token = sessionCookieSet(ctx.cookies)?.token ?? null
    if (token === null) return
    const cookie = multiCookieOfToken(token)
    const held = heldSessions(ctx)
    // A refresh of a session already held sets its cookie again: nothing new.
    if (held.some((entry) => entry.cookie === cookie)) return
    const created = await liveSession(ctx.auth, token)
    if (!created) return
    let others = 0
    const replaced: string[] = []
    for (const entry of held) {
      const found = await liveSession(ctx.auth, entry.token)
      if (!found) {
        ctx.cookies.delete(entry.cookie)
      } else if (found.user.id === created.user.id) {
        // The same account signed in again: the newer session takes the older one's place.
        replaced.push(hashSessionToken(entry.token))
        ctx.cookies.delete(entry.cookie)
      } else {
        others += 1
      }
    }
    if (replaced.length > 0) await deleteSessions(ctx.auth, replaced)
    if (others + 1 > maximum) return
    const remaining = Math.floor((created.session.expiresAt.getTime() - ctx.auth.clock.now().getTime()) / 1000)
    ctx.cookies.setSigned(cookie, token, { maxAge: Math.max(0, remaining) })
  }

  /** Sign-out ends every account this browser holds, each cookie cleared and each session deleted. */
  const signOutAll = async (ctx: HookContext): Promise<void> => {
    const held = heldSessions(ctx)
    for (const entry of held) ctx.cookies.delete(entry.cookie)
    await deleteSessions(ctx.auth, held.map((entry) => hashSessionToken(entry.token)))
  }

  return definePlugin({
    id: 'multi-session',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'multiSessionClient', from: '@gatehouse/multi-session/client' },
    endpoints: { listDeviceSessions, setActiveSession, revokeDeviceSession },
    errors: MultiSessionErrors,
    hooks: {
      after: [
        { matcher: (ctx: HookContext) => ctx.path === '/sign-out', handler: signOutAll },
        { matcher: () => true, handler: remember },
      ],
    },
  })
}
