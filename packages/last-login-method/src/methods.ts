/**
 * @module
 * Which method a sign-in route stands for (docs/last-login-method.md#methods).
 * Routes are matched by their path pattern, so a callback's provider comes
 * from its parameter, never from a string the client chose. Every value,
 * the application's own included, must be a short token before it is
 * stored: the cookie is read by page scripts and may be shown, so it never
 * carries markup, an address or anything else a person could be known by.
 */
import type { Logger } from '@gatehouse/core'
import { LOGIN_METHOD } from './defaults.js'
import type { LoginMethodContext, ResolvedLastLoginMethodOptions } from './options.js'

/** Routes whose method does not depend on the call. */
const FIXED: Readonly<Record<string, string>> = {
  '/sign-in/email': 'email',
  '/sign-up/email': 'email',
  '/sign-in/username': 'username',
  '/sign-in/email-otp': 'email-otp',
  '/sign-in/phone-number': 'phone-number',
  '/phone-number/verify': 'phone-number',
  '/magic-link/verify': 'magic-link',
  '/passkey/verify-authentication': 'passkey',
  '/sign-in/anonymous': 'anonymous',
}

/** Single sign-on callbacks (OIDC and SAML, docs/sso.md): one method whatever the provider. */
const SSO_PREFIXES = ['/sso/callback/', '/sso/saml2/sp/acs/']

/**
 * Whether `value` may be stored.
 *
 * @example
 * isLoginMethod('github') // true
 * isLoginMethod('<b>x</b>') // false
 */
export function isLoginMethod(value: unknown): value is string {
  return typeof value === 'string' && LOGIN_METHOD.test(value)
}

/** The route's own parameter named `name`, when the pattern has it. */
function param(ctx: LoginMethodContext, name: string): string | null {
  return ctx.path.includes(`:${name}`) ? (ctx.params[name] ?? null) : null
}

/**
 * The method the built-in table gives a call, or null when its route is not
 * a sign-in of its own: the social callback's provider id
 * (`/callback/:id`, `/oauth2/callback/:providerId`), the provider of an ID
 * token sign-in, `sso` for SSO callbacks, `siwe` for Sign-In with Ethereum,
 * the fixed routes above.
 *
 * @example
 * defaultLoginMethod({ path: '/callback/:id', params: { id: 'github' }, ... }) // 'github'
 */
export function defaultLoginMethod(ctx: LoginMethodContext): string | null {
  const { path } = ctx
  const fixed = FIXED[path]
  if (fixed !== undefined) return fixed
  if (path.startsWith('/callback/')) return param(ctx, 'id')
  if (path.startsWith('/oauth2/callback/')) return param(ctx, 'providerId') ?? param(ctx, 'id')
  // Without an ID token the route only starts a redirect and sets no session cookie, so this never counts then.
  if (path === '/sign-in/social') return providerOf(ctx.body)
  if (SSO_PREFIXES.some((prefix) => path.startsWith(prefix))) return 'sso'
  if (path.startsWith('/siwe/')) return 'siwe'
  return null
}

function providerOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null
  const { provider } = body as { provider?: unknown }
  return typeof provider === 'string' ? provider : null
}

/**
 * The second step of a two-factor sign-in (docs/two-factor.md#signing-in):
 * it completes the first factor's sign-in and is no method of its own.
 */
export function isSecondFactorStep(path: string): boolean {
  return path.startsWith('/two-factor/verify-')
}

/**
 * The method of a call: the application's resolver first, then the table.
 * A resolver that throws or answers something other than a short token is
 * logged and the call stores nothing: a bad value never reaches a cookie,
 * and a bug in the resolver never fails a sign-in that already succeeded.
 *
 * @example
 * const method = await resolveLoginMethod(options, ctx, ctx.auth.logger) // 'email' | null
 */
export async function resolveLoginMethod(options: ResolvedLastLoginMethodOptions, ctx: LoginMethodContext, logger: Logger): Promise<string | null> {
  if (options.customResolveMethod) {
    let custom: unknown
    try {
      custom = await options.customResolveMethod(ctx)
    } catch (error) {
      logger.error('lastLoginMethod: customResolveMethod threw; nothing stored', { path: ctx.path, error: error instanceof Error ? error.name : typeof error })
      return null
    }
    if (custom !== null && custom !== undefined) {
      if (isLoginMethod(custom)) return custom
      // The value itself is not logged: it may be anything, a person's address included.
      logger.warn('lastLoginMethod: customResolveMethod answered a value that is not a short token ([a-z0-9_-], 1 to 64); nothing stored', { path: ctx.path })
      return null
    }
  }
  const method = defaultLoginMethod(ctx)
  // A provider id with capitals or dots is configured by the application; it is not stored rather than rewritten.
  return isLoginMethod(method) ? method : null
}
