/**
 * @module
 * The SSO fetch and its URL checks (docs/sso.md#urls-the-server-fetches).
 */
export { isPublicAddress, refusedAddressRange } from './address.js'
export {
  assertFetchableUrl,
  checkFetchableUrl,
  exactOrigins,
  type FetchableUrl,
  type ResolvedAddress,
  type SafeFetchPolicy,
} from './policy.js'
export { createSafeFetch, DEFAULT_MAX_BYTES, DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUT_MS } from './safe-fetch.js'
export { isUnsafeUrlError, UnsafeUrlError, type UnsafeUrlReason } from './unsafe-url-error.js'
