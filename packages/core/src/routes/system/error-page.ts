/**
 * @module
 * GET /error (docs/core.md#pages): the page redirects land on when no error URL was
 * given. It shows the `error` query code; the code is attacker-supplied
 * (anyone can craft the link), so it is HTML-escaped and length-capped.
 * `errorPageResponse` renders the same page for plugins that answer an
 * error themselves.
 */
import { z } from 'zod'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character] ?? character)
}

export interface ErrorPageContent {
  /** The application's name, for the title. */
  readonly appName?: string | undefined
  /** The error code shown (an OAuth `error` value, a catalogue code). */
  readonly error: string
  readonly description?: string | undefined
  /** Default 200: the page a redirect lands on. A route answering an error itself passes its status. */
  readonly status?: number
}

/**
 * The error page as a Response: escaped and length-capped text, no script,
 * nothing loaded, never framed, never cached. Plugins that must show an error
 * instead of redirecting (an OAuth request naming an unverified redirect URI)
 * answer with it.
 *
 * @example
 * return errorPageResponse({ appName: options.appName, error: 'invalid_client', description: 'Invalid client', status: 400 })
 */
export function errorPageResponse(content: ErrorPageContent): Response {
  const code = escapeHtml(content.error.slice(0, 200))
  const description = content.description ? `<p>${escapeHtml(content.description.slice(0, 500))}</p>` : ''
  const title = escapeHtml(content.appName ?? 'Sign-in')
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
  return htmlPageResponse(html, content.status ?? 200)
}

/** The headers of every page core answers (this one, the sign-in confirmation); `html` is already escaped. */
export function htmlPageResponse(html: string, status: number, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      // The page runs no script and loads nothing: forbid both. Never framed, so no click can be stolen.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      // It shows what one request carried: no shared cache may keep it.
      'cache-control': 'no-store',
      ...headers,
    },
  })
}

export const errorPage = defineEndpoint({
  method: 'GET',
  path: '/error',
  query: z.lazy(() => z.object({ error: z.string().optional(), error_description: z.string().optional() }).loose()),
  metadata: { skipRateLimit: true },
  handler: ({ query, options }) =>
    errorPageResponse({ appName: options.appName, error: query.error ?? 'unknown_error', description: query.error_description }),
})
