/**
 * @module
 * Which browser asked for a sign-in link (docs/security.md#login-csrf).
 *
 * A mailed link that signs in (a magic link, a verification link with
 * `autoSignInAfterVerification`) is a GET: any site can send a browser to
 * it. An attacker who requests such a link for their own account and sends
 * a signed-out visitor to it would sign the visitor into the attacker's
 * account, where whatever the visitor then types (a card, a document) is the
 * attacker's to read: login CSRF.
 *
 * So the request that asks for the link (sign-up, send-verification-email,
 * sign-in/magic-link; all POSTs that pass the origin check) leaves a signed
 * cookie naming the address in the browser that made it. A link opened in
 * a browser holding that cookie signs in at once; a link opened as a page
 * in any other browser shows "Continue as …" first, and only the page's
 * POST signs in. Clients that are not browsers navigating (fetch, curl, a
 * mobile app's HTTP client) get the direct answer: a cross-site page can
 * only make a browser sign in by a top-level navigation, since browsers
 * refuse a SameSite=Lax cookie set by a cross-site subresource or frame.
 */
import { LINK_BINDING_COOKIE } from '../cookies/cookies.js'
import { sha256Base64url } from '../crypto/keys.js'
import type { EndpointContext } from '../endpoint/context.js'

const COOKIE = LINK_BINDING_COOKIE

type Ctx = Pick<EndpointContext, 'cookies' | 'headers'>

/**
 * Marks this browser as the one that asked for a link to `email`, for
 * `maxAge` seconds (the link's lifetime). One address at a time: the newest request wins.
 *
 * @example
 * await send(mail)
 * bindLinkToBrowser(ctx, user.email, expiresIn)
 */
export function bindLinkToBrowser(ctx: Ctx, email: string, maxAge: number): void {
  ctx.cookies.setSigned(COOKIE, sha256Base64url(email.toLowerCase()), { maxAge })
}

/** Whether this browser asked for a link to `email` (a signed binding cookie naming it). */
export function isLinkBoundToBrowser(ctx: Ctx, email: string): boolean {
  return ctx.cookies.getSigned(COOKIE) === sha256Base64url(email.toLowerCase())
}

/**
 * Whether the request is a browser's top-level navigation: `Sec-Fetch-Mode:
 * navigate`, or, from a browser too old to send Fetch Metadata, an `Accept`
 * that asks for HTML.
 */
export function isBrowserNavigation(ctx: Pick<EndpointContext, 'headers'>): boolean {
  const mode = ctx.headers.get('sec-fetch-mode')
  if (mode !== null) return mode === 'navigate'
  return (ctx.headers.get('accept') ?? '').includes('text/html')
}

/**
 * Whether a link to `email` opened by this request must ask "Continue as …"
 * before signing in: a browser navigation from a browser that did not ask for it.
 *
 * @example
 * if (needsLinkConfirmation(ctx, user.email)) return confirmSignInPage({ ..., reason: 'unrequested' })
 */
export function needsLinkConfirmation(ctx: Ctx, email: string): boolean {
  return isBrowserNavigation(ctx) && !isLinkBoundToBrowser(ctx, email)
}
