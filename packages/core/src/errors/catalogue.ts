/**
 * @module
 * The typed error catalogue. Every package declares its errors once, with the
 * HTTP status attached to the code and one fixed message (docs/core.md#errors);
 * a throw site names a code and never picks a status.
 */

/** Status names and numbers as RFC 9110 §15 defines them. */
export const HttpStatus = {
  OK: 200,
  FOUND: 302,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  EXPECTATION_FAILED: 417,
  UNPROCESSABLE_ENTITY: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const

export interface ErrorDefinition<Code extends string = string> {
  readonly code: Code
  readonly status: number
  readonly message: string
}

export type ErrorCatalogue<Codes extends string = string> = {
  readonly [C in Codes]: ErrorDefinition<C>
}

/**
 * Declares a catalogue: the key is the code, the value its status and message.
 *
 * @example
 * export const CoreErrors = defineErrors({
 *   USER_ALREADY_EXISTS: { status: 422, message: 'User already exists' },
 * })
 * throw new AuthError(CoreErrors.USER_ALREADY_EXISTS)
 */
export function defineErrors<const T extends Record<string, { status: number; message: string }>>(
  definitions: T,
): { readonly [C in keyof T & string]: ErrorDefinition<C> } {
  const catalogue: Record<string, ErrorDefinition> = {}
  for (const [code, { status, message }] of Object.entries(definitions)) {
    catalogue[code] = Object.freeze({ code, status, message })
  }
  return Object.freeze(catalogue) as { readonly [C in keyof T & string]: ErrorDefinition<C> }
}

export interface AuthErrorOptions {
  /** Replaces the catalogue message, for messages with a placeholder ("{field} is required"). */
  message?: string
  /** Extra JSON fields sent beside `code` and `message` (validation issues, say). */
  details?: Record<string, unknown>
  /** Extra response headers (`X-Retry-After`, `Allow`). */
  headers?: Record<string, string>
  cause?: unknown
}

/**
 * The one error type endpoints throw. Its `code` narrows to the catalogue's
 * codes, like jose's `JOSEError.code`.
 *
 * @example
 * try { await auth.api.signInEmail({ body }) }
 * catch (error) { if (error instanceof AuthError && error.code === 'INVALID_EMAIL_OR_PASSWORD') ... }
 */
export class AuthError<Code extends string = string> extends Error {
  override readonly name = 'AuthError'
  readonly code: Code
  readonly status: number
  readonly details: Record<string, unknown> | undefined
  readonly headers: Record<string, string> | undefined

  constructor(definition: ErrorDefinition<Code>, options: AuthErrorOptions = {}) {
    super(options.message ?? definition.message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = definition.code
    this.status = definition.status
    this.details = options.details
    this.headers = options.headers
  }

  /** The JSON body every error response carries: `{ code, message }` plus details. */
  toJSON(): Record<string, unknown> {
    return { ...this.details, code: this.code, message: this.message }
  }
}

export function isAuthError(value: unknown): value is AuthError {
  return value instanceof AuthError
}
