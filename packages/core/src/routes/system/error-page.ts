/**
 * @module
 * GET /error (docs/core.md#pages): the page redirects land on when no error URL was
 * given. It shows the `error` query code; the code is attacker-supplied
 * (anyone can craft the link), so it is HTML-escaped and length-capped.
 */
import { z } from 'zod'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character] ?? character)
}

export const errorPage = defineEndpoint({
  method: 'GET',
  path: '/error',
  query: z.object({ error: z.string().optional(), error_description: z.string().optional() }).loose(),
  metadata: { skipRateLimit: true },
  handler: ({ query, options }) => {
    const code = escapeHtml((query.error ?? 'unknown_error').slice(0, 200))
    const description = query.error_description ? `<p>${escapeHtml(query.error_description.slice(0, 500))}</p>` : ''
    const title = escapeHtml(options.appName ?? 'Sign-in')
    const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}: error</title></head>
<body>
<main>
<h1>Something went wrong</h1>
<p>Error code: <code>${code}</code></p>
${description}
</main>
</body>
</html>
`
    return new Response(html, {
      status: 200,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        // The page runs no script and loads nothing: forbid both.
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
        'x-content-type-options': 'nosniff',
      },
    })
  },
})
