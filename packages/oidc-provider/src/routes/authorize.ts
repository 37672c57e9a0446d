/**
 * @module
 * GET and POST /oauth2/authorize (RFC 6749 §4.1.1, OpenID Connect Core
 * §3.1.2.1, which asks for both methods; a POST carries the parameters as a
 * form). Always answers with a redirect (to the login page, the consent page
 * or the client), except for the errors that must not be redirected (an
 * unknown client, a redirect URI not registered exactly): those are answered
 * here with their status, as the OAuth error object for an API caller and as
 * core's error page for a browser (docs/oidc-provider.md#authorization). So
 * are a self-registered client's errors before the user interacted (RFC 9700
 * §4.11.2; services/authorization.ts). The
 * POST form comes from the relying party's origin, so the origin check is
 * off: the request changes nothing a GET by navigation could not.
 */
import { defineEndpoint, errorPageResponse, optionalSensitiveSessionMiddleware } from '@gatehouse/core'
import { OAuthError } from '../errors.js'
import type { ResolvedOidcOptions } from '../options.js'
import { continueAuthorization } from '../services/authorization.js'
import { oauthParams } from './params.js'

/** The quality an Accept header gives `type`: the most specific matching range decides (RFC 9110 §12.5.1). */
function quality(accept: string, type: string): number {
  const family = `${type.slice(0, type.indexOf('/'))}/*`
  let specificity = -1
  let q = 0
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((item) => item.trim().toLowerCase())
    const rank = range === type ? 2 : range === family ? 1 : range === '*/*' ? 0 : -1
    if (rank <= specificity) continue
    const weight = params.find((param) => param.startsWith('q='))
    const value = weight === undefined ? 1 : Number(weight.slice(2))
    specificity = rank
    q = Number.isFinite(value) ? value : 0
  }
  return q
}

/**
 * Whether the caller would rather read HTML than JSON: a browser navigating
 * (`text/html,…,*\/*;q=0.8`) does; `*\/*`, `application/json` or no Accept
 * at all gets the JSON error object.
 *
 * @example
 * prefersHtml('text/html,application/xhtml+xml,*\/*;q=0.8') // true
 * prefersHtml('*\/*') // false
 */
export function prefersHtml(accept: string | null): boolean {
  if (!accept) return false
  const html = quality(accept, 'text/html')
  return html > 0 && html > quality(accept, 'application/json')
}

export function oauth2Authorize(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: ['GET', 'POST'],
    path: '/oauth2/authorize',
    query: oauthParams,
    body: oauthParams,
    // From the store, never the cookie cache: a session revoked elsewhere must not obtain a code.
    use: [optionalSensitiveSessionMiddleware],
    metadata: { skipOriginCheck: true },
    handler: async (ctx) => {
      // Every answer is about one request and one user: redirects with codes, error pages.
      ctx.responseHeaders.set('cache-control', 'no-store')
      const { session } = ctx
      const signIn = session ? { userId: session.user.id, signedInAt: session.session.createdAt, sessionToken: session.session.token } : null
      const params = ctx.method === 'POST' ? (ctx.body ?? {}) : (ctx.query ?? {})
      try {
        const step = await continueAuthorization(ctx, options, params, signIn)
        if ('redirect' in step) return ctx.redirect(step.redirect)
        const { error, description } = step.errorPage
        if (prefersHtml(ctx.headers.get('accept'))) return errorPageResponse({ appName: ctx.options.appName, error, description, status: 400 })
        return new Response(JSON.stringify({ error, error_description: description }), {
          status: 400,
          headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
        })
      } catch (error) {
        // Not redirectable: the address is unverified. A person sees a page; an API caller keeps the JSON.
        if (!(error instanceof OAuthError) || !prefersHtml(ctx.headers.get('accept'))) throw error
        return errorPageResponse({ appName: ctx.options.appName, error: error.error, description: error.message, status: error.status })
      }
    },
  })
}
