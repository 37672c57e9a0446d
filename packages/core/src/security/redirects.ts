/**
 * @module
 * Redirect target validation (docs/security.md#redirect-targets-securityredirectsts): a callbackURL,
 * redirectURL, errorCallbackURL or newUserCallbackURL must be a safe relative
 * path or an absolute URL on a trusted origin; anything else is an open
 * redirect, which turns our sign-in page into a phishing launcher. The endpoint
 * layer maps a failure to 403 "Invalid callbackURL" (or the field's own message).
 *
 * A relative path must stay on our origin under every parser that might read
 * it: the browser following `Location`, a reverse proxy, a framework router that
 * decodes once more. Hence the blunt rules: one leading '/', no '//' anywhere
 * (`//evil.test` is protocol-relative), no backslash (`/\evil.test` is
 * `//evil.test` to WHATWG URL), no encoded slash or backslash at any depth of
 * encoding (`/%2f%2fevil.test`, `/%252f...` become '//' after one or two decodes),
 * no dot segments, no raw whitespace and no control characters, raw or encoded
 * (tabs and newlines are stripped by URL parsers; an encoded CR/LF decoded into
 * a header by a careless layer splits it); an encoded space (%20) is fine.
 * Blunt rules refuse a few harmless values (`/cb?next=https://a.test` contains
 * '//'): pass such data some other way.
 */

import { parseHttpUrl, UNSAFE_URL_CHARACTERS } from './origins.js'

/** Percent-encoded '/', '\', C0 controls and DEL, after `%25` has been unwrapped. */
const UNSAFE_ESCAPE = /%(?:2f|5c|[01][0-9a-f]|7f)/i
const PROBE_ORIGIN = 'http://gatehouse.invalid'

/** Undo any depth of `%25` wrapping, so `%25252f` is seen as `%2f`. */
function unwrapPercent(text: string): string {
  let current = text
  let previous: string
  do {
    previous = current
    current = current.replace(/%25/gi, '%')
  } while (current !== previous)
  return current
}

/**
 * True when `path` is a same-origin path: starts with exactly one '/', may carry
 * `?query` and `#hash`, and nothing in it can be read as another host.
 *
 * @example
 * isSafeRelativePath('/dashboard?tab=2#top') // true
 * isSafeRelativePath('//evil.test')          // false
 * isSafeRelativePath('/%2fevil.test')        // false
 */
export function isSafeRelativePath(path: string): boolean {
  if (!path.startsWith('/')) return false
  if (path.includes('//') || UNSAFE_URL_CHARACTERS.test(path)) return false
  const unwrapped = unwrapPercent(path)
  if (UNSAFE_ESCAPE.test(unwrapped)) return false
  const pathname = unwrapped.split(/[?#]/, 1)[0] ?? ''
  const segments = pathname.replace(/%2e/gi, '.').split('/')
  if (segments.some((segment) => segment === '.' || segment === '..')) return false
  // Last line of defence: resolved against a probe origin it must not leave it.
  try {
    return new URL(path, PROBE_ORIGIN).origin === PROBE_ORIGIN
  } catch {
    return false
  }
}

export type RedirectCheck = { ok: true } | { ok: false }

/**
 * Checks a redirect target from a request. Absent (undefined or empty) is fine:
 * the caller falls back to its default. Otherwise the value must be a safe
 * relative path, or an absolute http(s) URL whose origin `isTrusted` accepts.
 *
 * @example
 * const isTrusted = createOriginMatcher(options.trustedOrigins)
 * if (!checkRedirectTarget(body.callbackURL, isTrusted).ok) {
 *   throw new AuthError(CoreErrors.INVALID_CALLBACK_URL)
 * }
 */
export function checkRedirectTarget(
  value: string | undefined,
  isTrusted: (origin: string) => boolean,
): RedirectCheck {
  if (value === undefined || value === '') return { ok: true }
  if (value.startsWith('/')) return { ok: isSafeRelativePath(value) }
  const url = parseHttpUrl(value)
  return { ok: url !== null && isTrusted(url.origin) }
}
