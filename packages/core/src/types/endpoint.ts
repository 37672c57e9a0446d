/**
 * @module
 * The leaf types of an endpoint definition: its HTTP method, the zod schema
 * type of its input and the metadata that exempts it from request guards.
 * They name nothing else in core, so anything may import them.
 */
import type { z } from 'zod'

/**
 * The HTTP methods an endpoint may answer. Most routes are GET or POST
 * (docs/endpoints.md); PUT, PATCH and DELETE serve protocols whose wire
 * format names them, such as SCIM 2.0 (RFC 7644 §3, docs/scim.md).
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export type Schema = z.ZodType

export interface EndpointMetadata {
  /**
   * Exempt from the origin check (docs/endpoints.md#what-happens-to-a-request): for callers that are
   * not browsers (webhooks) or cross-site posts bound by something else (a provider's `form_post`).
   */
  readonly skipOriginCheck?: boolean
  /** Hand the handler the raw body text instead of parsed JSON (signature checks). */
  readonly rawBody?: boolean
  /** Largest accepted request body in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number
  /** Exempt from rate limiting. */
  readonly skipRateLimit?: boolean
  /**
   * Readable from any origin, without credentials: every answer carries
   * `Access-Control-Allow-Origin: *` and OPTIONS preflights are answered
   * (docs/endpoints.md#cross-origin-calls). Only for endpoints that read no
   * cookie (bearer tokens, client credentials in the body or a header, public
   * documents): a browser never sends cookies to a wildcard origin. Also
   * exempt from the origin check, since every origin is meant to call it.
   */
  readonly cors?: boolean
  /**
   * The session comes from the session cookie only: neither an `Authorization:
   * Bearer` session token nor a plugin's credential (an API key) is read
   * (docs/sessions.md#credentials-other-than-the-cookie). For routes whose
   * bearer tokens mean something else (the OIDC provider's access tokens, SCIM
   * tokens) or that a person must do in a browser.
   */
  readonly cookieOnly?: boolean
}
