/**
 * @module
 * The error the SSO fetch throws when a URL an organization admin typed is refused
 * (docs/sso.md#urls-the-server-fetches). Its `reason` lets a route choose the answer:
 * at registration every reason is the admin's mistake (400); at sign-in `timeout` and
 * `too_large` are the IdP's fault (502/504-type), the rest a configuration that no
 * longer passes (for example a name now resolving to a private address).
 */

/**
 * - `invalid_url`: not an absolute URL, or it carries credentials (`https://user:pass@...`).
 * - `scheme`: neither https nor an http(s) origin listed in `trustedOrigins`.
 * - `address`: the host is, or resolves to, an address the server must not reach
 *   (loopback, private, link-local and cloud metadata, ...; see `refusedAddressRange`).
 * - `redirects`: more redirects than allowed, or a redirect where the caller asked for none.
 * - `too_large`: the response body is larger than the cap.
 * - `timeout`: the whole exchange (every hop, headers and body) took longer than allowed.
 */
export type UnsafeUrlReason = 'scheme' | 'address' | 'redirects' | 'too_large' | 'timeout' | 'invalid_url'

/**
 * Thrown by `createSafeFetch`'s fetch and by `assertFetchableUrl`. The message names the
 * URL and, for `address`, the refused address: meant for logs. Show a fixed text to
 * users, since an address a name resolves to inside the network is not theirs to learn.
 * Recognised by its `name` as well as by class, so two bundled copies still agree.
 *
 * @example
 * try {
 *   await safeFetch(discoveryUrl)
 * } catch (error) {
 *   if (isUnsafeUrlError(error) && error.reason === 'timeout') return badGateway()
 *   throw error
 * }
 */
export class UnsafeUrlError extends Error {
  override readonly name = 'UnsafeUrlError'
  readonly code = 'ERR_UNSAFE_URL'
  readonly reason: UnsafeUrlReason
  /** The refused URL, without any credentials it carried. */
  readonly url: string

  constructor(reason: UnsafeUrlReason, url: string, message: string, options?: ErrorOptions) {
    super(`${message}: ${url}`, options)
    this.reason = reason
    this.url = url
  }
}

/**
 * True for an `UnsafeUrlError`, also one thrown by another copy of this package.
 *
 * @example
 * if (isUnsafeUrlError(error)) return badRequest(error.reason)
 */
export function isUnsafeUrlError(error: unknown): error is UnsafeUrlError {
  return error instanceof UnsafeUrlError || (error instanceof Error && error.name === 'UnsafeUrlError')
}
