/**
 * @module
 * Domains as the plugin compares them (docs/sso.md#domains): lowercase, in
 * their ASCII form (IDNA, `bücher.example` → `xn--bcher-kva.example`, through
 * the WHATWG URL parser every runtime has), without a trailing dot. A
 * provider signs in only addresses whose domain equals its own, exactly.
 *
 * Exact, not "the domain or any subdomain": a TXT record at the apex proves
 * control of that name, not of every name below it. Subdomains are often
 * someone else's (a vendor's `shop.example.com`, a hosting platform whose
 * customers each get one), so a provider verified for `example.com` taking
 * over `mallory@shop.example.com` would cross a boundary the verification
 * never proved. An organization with addresses at `eu.example.com` registers
 * and verifies that domain too.
 */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
const MAX_DOMAIN_LENGTH = 253

/**
 * The domain in its compared form, or null when it is not a DNS name of at
 * least two labels (an IP address, a URL, a port, a single label, `a..b`).
 *
 * @example
 * normalizeDomain('Bücher.Example.') // 'xn--bcher-kva.example'
 * normalizeDomain('https://example.com') // null
 */
export function normalizeDomain(input: string): string | null {
  const trimmed = input.trim().replace(/\.$/, '')
  // Anything that would make the URL parser read another host, or no host at all, is not a bare domain.
  if (trimmed === '' || /[/\\?#@:%\s[\]]/.test(trimmed)) return null
  let host: string
  try {
    host = new URL(`http://${trimmed}`).hostname
  } catch {
    return null
  }
  if (host.length > MAX_DOMAIN_LENGTH) return null
  const labels = host.split('.')
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null
  // The last label of a DNS name is never all digits: that is an IPv4 address (1.2.3.4, or 0x7f.1 spelled otherwise).
  if (/^[0-9]+$/.test(labels[labels.length - 1] ?? '')) return null
  return host
}

/**
 * The domain of an email address in its compared form, or null.
 *
 * @example
 * emailDomain('Ada@Example.COM') // 'example.com'
 */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@')
  if (at <= 0 || at === email.length - 1) return null
  return normalizeDomain(email.slice(at + 1))
}

/**
 * Whether `email` is an address at exactly `domain` (already normalized).
 *
 * @example
 * isEmailAtDomain('ada@example.com', 'example.com') // true
 * isEmailAtDomain('ada@eu.example.com', 'example.com') // false
 */
export function isEmailAtDomain(email: string, domain: string): boolean {
  const own = emailDomain(email)
  return own !== null && own === domain
}
