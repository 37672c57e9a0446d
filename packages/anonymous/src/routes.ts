/**
 * @module
 * The anonymous routes (docs/anonymous.md#routes), named and shaped as the leading library's:
 *
 * - POST /sign-in/anonymous: a guest user (placeholder address, never
 *   deliverable, not verified) and its session, created in one transaction;
 *   `{ token, user }` and the session cookie. A browser already signed in as
 *   a guest is refused: it keeps the guest it has. Limited per client (5 a
 *   minute by default) on top of core's `/sign-in/*` limit.
 * - POST /delete-anonymous-user (the guest's own session, from the store):
 *   the guest and everything core and plugins issued to it are deleted, as
 *   any user's deletion; `{ success: true }`.
 */
import {
  AuthError,
  createSession,
  defineEndpoint,
  findSession,
  mirrorSession,
  normalizeEmail,
  publicRow,
  readSessionToken,
  removeUser,
  sensitiveSessionMiddleware,
  setSessionCookies,
  type EndpointContext,
  type Row,
  type User,
} from '@gatehouse/core'
import { AnonymousErrors } from './errors.js'
import type { ResolvedAnonymousOptions } from './options.js'

const GUEST_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** Whether the browser's session (from the store) is a guest's. */
export async function callerIsGuest(ctx: Pick<EndpointContext, 'auth' | 'cookies'>): Promise<boolean> {
  const token = readSessionToken(ctx)
  if (!token) return false
  const found = await findSession(ctx.auth, token)
  return found !== null && found.session.expiresAt.getTime() > ctx.auth.clock.now().getTime() && found.user.isAnonymous === true
}

async function guestEmail(ctx: EndpointContext, options: ResolvedAnonymousOptions): Promise<string> {
  const generated = options.generateRandomEmail ? await options.generateRandomEmail() : `guest-${ctx.auth.random.string(24, GUEST_ID_ALPHABET)}@${options.emailDomainName}`
  const email = normalizeEmail(generated)
  if (!email) throw new AuthError(AnonymousErrors.INVALID_EMAIL_FORMAT)
  return email
}

export function signInAnonymous(options: ResolvedAnonymousOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/sign-in/anonymous',
    handler: async (ctx) => {
      if (await callerIsGuest(ctx)) throw new AuthError(AnonymousErrors.ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY)
      const email = await guestEmail(ctx, options)
      const name = (options.generateName ? await options.generateName(ctx) : '') || 'Anonymous'
      const { user, session } = await ctx.db.transaction(async (tx) => {
        const user = await tx.create<User & Row>({ model: 'user', data: { email, name, emailVerified: false, image: null, isAnonymous: true } })
        const session = await createSession(ctx.auth, user, { ipAddress: ctx.ip, userAgent: ctx.headers.get('user-agent'), db: tx, mirror: false })
        return { user, session }
      })
      await mirrorSession(ctx.auth, session)
      setSessionCookies(ctx, session, { dontRemember: false })
      return { token: session.token, user: publicRow(ctx.auth.schema, 'user', user) }
    },
  })
}

export function deleteAnonymousUser(options: ResolvedAnonymousOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/delete-anonymous-user',
    use: [sensitiveSessionMiddleware],
    handler: async (ctx) => {
      if (options.disableDeleteAnonymousUser) throw new AuthError(AnonymousErrors.DELETE_ANONYMOUS_USER_DISABLED)
      const { user } = ctx.session
      if (user.isAnonymous !== true) throw new AuthError(AnonymousErrors.USER_IS_NOT_ANONYMOUS)
      await removeUser(ctx, user)
      return { success: true }
    },
  })
}
