/**
 * @module
 * Adds one query parameter to a redirect target (the verify-email error is
 * appended with `?` or `&`, docs/accounts.md#email-verification; the reset link
 * redirects with `token=` or `error=INVALID_TOKEN`). Works on relative paths
 * as well as absolute URLs, keeps an existing query and puts the parameter
 * before any `#fragment`, where a server would never see it.
 */

/**
 * @example
 * appendQueryParam('/verified', 'error', 'invalid_token')        // '/verified?error=invalid_token'
 * appendQueryParam('/verified?tab=1#top', 'error', 'token_expired') // '/verified?tab=1&error=token_expired#top'
 */
export function appendQueryParam(url: string, name: string, value: string): string {
  const hashAt = url.indexOf('#')
  const base = hashAt === -1 ? url : url.slice(0, hashAt)
  const fragment = hashAt === -1 ? '' : url.slice(hashAt)
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&'
  return `${base}${separator}${encodeURIComponent(name)}=${encodeURIComponent(value)}${fragment}`
}
