/**
 * @module
 * POST /callback/{providerId} (docs/social.md#form-post-callbacks): providers
 * using `response_mode=form_post` (Apple) send the authorization response as
 * a cross-site form POST. The browser sends no SameSite=Lax cookie with it,
 * so the state cookie is missing here; the route therefore does nothing but
 * answer 303 to the GET callback with the form's fields in the query. The
 * browser follows that as a top-level GET navigation, which carries the
 * cookies, and the GET does all the checking. Nothing is read or written
 * here, which is why the origin check (a cross-site POST by design) is off.
 */
import { defineEndpoint } from '../../endpoint/define-endpoint.js'

/**
 * @example
 * // Apple posts the form: POST /api/auth/callback/apple  code=…&state=…&user=…
 * // and the browser is sent on to GET /api/auth/callback/apple?code=…&state=…&user=…
 */
export const callbackOAuthPost = defineEndpoint({
  method: 'POST',
  path: '/callback/:id',
  metadata: { skipOriginCheck: true, maxBodyBytes: 64 * 1024 },
  handler: (ctx) => {
    const params = new URLSearchParams()
    for (const source of [ctx.query, ctx.body]) {
      if (typeof source !== 'object' || source === null) continue
      for (const [name, value] of Object.entries(source)) {
        if (typeof value === 'string') params.set(name, value)
      }
    }
    const target = `${ctx.auth.baseURL}/callback/${encodeURIComponent(ctx.params.id ?? '')}`
    const query = params.toString()
    return ctx.redirect(query ? `${target}?${query}` : target, 303)
  },
})
