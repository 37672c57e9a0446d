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
 * byte for byte (RFC 6749 §3.1.2: the registered URI's query is retained).
 * Undefined values are left out; values are percent-encoded, so a `state`
 * with `&`, `=`, `+` or spaces comes back to the client exactly.
 *
 * @example
 * withParams('https://rp.test/cb?x=a%20b', { code: 'abc', state: undefined }) // 'https://rp.test/cb?x=a%20b&code=abc'
 */
export function withParams(uri: string, params: Record<string, string | undefined>): string {
  const added = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== undefined) added.append(key, value)
  const text = added.toString()
  if (!text) return uri
  // Registered URIs carry no fragment (checkRedirectURI); should one get here, the query still goes before it.
  const hash = uri.indexOf('#')
  const base = hash === -1 ? uri : uri.slice(0, hash)
  const fragment = hash === -1 ? '' : uri.slice(hash)
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&'
  return `${base}${separator}${text}${fragment}`
}
