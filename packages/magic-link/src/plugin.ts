/**
 * @module
 * `magicLink(options)`: passwordless sign-in by a mailed link (docs/magic-link.md).
 * No tables of its own: tokens live in core's verification table under
 * their own prefix. POST /sign-in/magic-link gets the strict limit of the
 * other mail-sending routes (3 requests per 10 s and client by default).
 * With sign-up off, links are mailed after the answer (core's createAfterAnswer).
 */
import { createAfterAnswer, definePlugin } from '@gatehouse/core'
import { resolveOptions, type MagicLinkOptions } from './options.js'
import { magicLinkEndpoints } from './routes/index.js'

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   plugins: [magicLink({ sendMagicLink: ({ email, url }) => mailer.queue(email, 'Your sign-in link', url) })],
 * })
 */
export function magicLink(options: MagicLinkOptions) {
  const resolved = resolveOptions(options)
  const later = createAfterAnswer()
  return definePlugin({
    id: 'magic-link',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'magicLinkClient', from: '@gatehouse/magic-link/client' },
    endpoints: magicLinkEndpoints(resolved, later),
    rateLimit: [
      {
        pathMatcher: (path: string) => path === '/sign-in/magic-link',
        window: resolved.rateLimit.window,
        max: resolved.rateLimit.max,
      },
    ],
    /** Resolves once mails sent after their answer (sign-up off) have gone (tests, graceful shutdown). */
    idle: () => later.idle(),
  })
}
