/**
 * @module
 * The HTTP-POST binding for an IdP that takes AuthnRequests only by POST
 * (docs/sso.md#saml-bindings). `POST /sign-in/sso` answers with a URL the
 * browser navigates to, so it cannot post a form itself: the form's fields
 * are parked server-side for the request's 10 minutes (`sso-saml-post:` and
 * the SHA-256 of the RelayState handle), and our page route
 * (routes/saml/authn-request.ts) renders them once as a form that submits
 * itself to the IdP.
 *
 * The page's Content-Security-Policy allows nothing but its own script, by
 * nonce. It sets no `form-action`: browsers apply it to the redirects after
 * the submission too, and IdPs redirect a posted request across origins
 * (to a login host, a federated directory). The form's target is the
 * configured IdP endpoint and every value is HTML-escaped, so the page has
 * nothing an attacker could point elsewhere.
 */
import { sha256Base64url, type EndpointContext, type Row } from '@gatehouse/core'
import { REQUEST_TTL_MS } from './request-store.js'

const PREFIX = 'sso-saml-post:'

export interface ParkedForm {
  readonly providerId: string
  /** The IdP's HTTP-POST single sign-on endpoint. */
  readonly action: string
  /** The form fields: SAMLRequest and RelayState. */
  readonly fields: Readonly<Record<string, string>>
}

type Ctx = Pick<EndpointContext, 'db' | 'clock'>

function identifier(handle: string): string {
  return `${PREFIX}${sha256Base64url(handle)}`
}

/**
 * @example
 * await parkForm(ctx, relayState, { providerId, action: idp.singleSignOn.post, fields: message })
 */
export async function parkForm(ctx: Ctx, handle: string, form: ParkedForm): Promise<void> {
  await ctx.db.create({
    model: 'verification',
    data: { identifier: identifier(handle), value: JSON.stringify(form), expiresAt: new Date(ctx.clock.now().getTime() + REQUEST_TTL_MS) },
  })
}

/** The parked form of `handle` for `providerId`, consumed (the page renders once); null when unknown, used or expired. */
export async function takeForm(ctx: Ctx, handle: string, providerId: string): Promise<ParkedForm | null> {
  const row = await ctx.db.consume<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(handle) },
  })
  if (!row || row.expiresAt.getTime() <= ctx.clock.now().getTime()) return null
  try {
    const form = JSON.parse(row.value) as ParkedForm
    return form.providerId === providerId && typeof form.action === 'string' ? form : null
  } catch {
    return null
  }
}

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character] ?? character)
}

/**
 * The self-submitting page. `nonce` comes from the CSPRNG per response.
 *
 * @example
 * return autoPostPage(form, ctx.random.string(24))
 */
export function autoPostPage(form: ParkedForm, nonce: string): Response {
  const inputs = Object.entries(form.fields)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('\n')
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Signing in…</title></head>
<body>
<form method="post" action="${escape(form.action)}">
${inputs}
<noscript><p>Continue to your identity provider.</p><button type="submit">Continue</button></noscript>
</form>
<script nonce="${nonce}">document.forms[0].submit()</script>
</body>
</html>
`
  return new Response(html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      // The page holds a one-time request: no cache may keep or replay it.
      'cache-control': 'no-store',
    },
  })
}
