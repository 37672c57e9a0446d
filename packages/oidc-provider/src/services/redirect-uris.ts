/**
 * @module
 * Redirect URIs: what registration accepts, and how responses are attached
 * to them. A registered URI must be absolute, https (or http on a loopback
 * host, RFC 8252 §7.3), without a fragment (RFC 6749 §3.1.2) and without a
 * comma (the stored list is comma-separated). At authorization time the URI
 * must equal a registered one exactly: no prefix, case, slash or port
 * tolerance (RFC 9700 §4.1.3).
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

export type RedirectURICheck = { readonly ok: true } | { readonly ok: false; readonly reason: string }

/**
 * @example
 * checkRedirectURI('https://rp.example.com/cb') // { ok: true }
 * checkRedirectURI('javascript:alert(1)')       // { ok: false, reason: 'Redirect URI must use https' }
 */
export function checkRedirectURI(uri: string): RedirectURICheck {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return { ok: false, reason: 'Redirect URI must be an absolute URL' }
  }
  if (url.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(url.hostname)) return { ok: false, reason: 'Redirect URI must use https (http only on a loopback host)' }
  } else if (url.protocol !== 'https:') {
    return { ok: false, reason: 'Redirect URI must use https' }
  }
  if (uri.includes('#')) return { ok: false, reason: 'Redirect URI must not contain a fragment' }
  if (uri.includes(',')) return { ok: false, reason: 'Redirect URI must not contain a comma' }
  if (url.username || url.password) return { ok: false, reason: 'Redirect URI must not carry credentials' }
  return { ok: true }
}

/** Exact string comparison: the only match RFC 9700 §4.1.3 allows. */
export function isRegistered(registered: readonly string[], uri: string): boolean {
  return registered.includes(uri)
}

/**
 * `uri` with `params` added to its query, keeping the query it already has
 * (RFC 6749 §3.1.2). Undefined values are left out.
 *
 * @example
 * withParams('https://rp.test/cb?x=1', { code: 'abc', state: undefined }) // 'https://rp.test/cb?x=1&code=abc'
 */
export function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  return url.toString()
}
