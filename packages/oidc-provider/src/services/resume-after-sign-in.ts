/**
 * @module
 * Resuming an authorization after sign-in (docs/oidc-provider.md#authorization):
 * an after-hook on core's sign-in and sign-up endpoints. When the request
 * carries the pending-authorization cookie and the endpoint just created a
 * session (its answer holds a token and the user), the answer's
 * `{ redirect, url }` is pointed at the next step of the flow (consent page
 * or the client with a code), as a sign-in with a callbackURL would be.
 */
import { hashSessionToken, type AfterHook, type HookContext } from '@gatehouse/core'
import { OAuthError } from '../errors.js'
import type { ResolvedOidcOptions } from '../options.js'
import { continueAuthorization, LOGIN_COOKIE, pendingLoginQuery } from './authorization.js'

interface SignInAnswer {
  readonly token: string
  readonly user: { readonly id: string }
  readonly [field: string]: unknown
}

function isSignInAnswer(value: unknown): value is SignInAnswer {
  if (typeof value !== 'object' || value === null || value instanceof Response) return false
  const { token, user } = value as { token?: unknown; user?: unknown }
  return typeof token === 'string' && typeof user === 'object' && user !== null && typeof (user as { id?: unknown }).id === 'string'
}

const isSignInPath = (ctx: HookContext) => ctx.path.startsWith('/sign-in/') || ctx.path.startsWith('/sign-up/')

export function resumeAfterSignIn(options: ResolvedOidcOptions): AfterHook {
  return {
    matcher: (ctx) => isSignInPath(ctx) && ctx.cookies.get(LOGIN_COOKIE) !== undefined,
    handler: async (ctx) => {
      if (!isSignInAnswer(ctx.returned)) return
      const query = pendingLoginQuery(ctx)
      if (!query) return
      try {
        const signIn = { userId: ctx.returned.user.id, signedInAt: ctx.auth.clock.now(), sessionToken: hashSessionToken(ctx.returned.token) }
        const step = await continueAuthorization(ctx, options, query, signIn, { justSignedIn: true })
        // The user just signed in for this request: every error goes back to the client (services/authorization.ts).
        if (!('redirect' in step)) return
        return { returned: { ...ctx.returned, redirect: true, url: step.redirect } }
      } catch (error) {
        // The client vanished or changed while the user signed in: the sign-in itself stands.
        if (!(error instanceof OAuthError)) throw error
        ctx.cookies.delete(LOGIN_COOKIE)
        return
      }
    },
  }
}
