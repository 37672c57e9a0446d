/**
 * @module
 * The page end-session answers a browser that has no session here when the
 * relying party named a registered `post_logout_redirect_uri`
 * (docs/oidc-provider.md#end-session): "you are signed out", and a link to
 * go on, labelled with the link's host rather than the client's name (a
 * self-registered name is the registrant's claim). The link is never
 * followed automatically: that would make the provider a redirector for
 * anyone holding an ID Token of their own. No script, nothing loaded, never
 * framed or cached.
 */

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escape = (text: string) => text.replace(/[&<>"']/g, (character) => entities[character] ?? character)

/**
 * @example
 * return signedOutPage({ appName: 'Gatehouse', link: 'https://rp.example.com/bye?state=s' })
 */
export function signedOutPage(content: { readonly appName?: string | undefined; readonly link: string }): Response {
  const title = escape(content.appName ?? 'Account')
  let host = content.link
  try {
    host = new URL(content.link).host || content.link
  } catch {
    // A registered URI always parses; keep the raw text should one not.
  }
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}: signed out</title></head>
<body>
<main>
<h1>You are signed out</h1>
<p><a href="${escape(content.link)}" rel="noreferrer">Continue to ${escape(host)}</a></p>
</main>
</body>
</html>
`
  return new Response(html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
  })
}
