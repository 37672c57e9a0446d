/**
 * @module
 * What a failed call resolves to. A server error keeps the catalogue code,
 * status and message the server sent (docs/endpoints.md#errors); the client adds codes of its
 * own for failures no server catalogue covers: a response that does not match
 * its expected shape (a client-side validation error, docs/client.md#errors), a
 * request that never got an answer, and one the caller aborted.
 */

/** The client's own codes. A shape mismatch keeps the response's HTTP status; the others have none (0). */
export const ClientErrors = {
  CLIENT_VALIDATION_ERROR: { message: 'Response does not match its expected shape' },
  NETWORK_ERROR: { status: 0, message: 'Network request failed' },
  REQUEST_ABORTED: { status: 0, message: 'Request aborted' },
} as const

export type ClientErrorCode = keyof typeof ClientErrors

/** One problem found in a body: `body.email` from the server's validation, `response.user.id` from the client's. */
export interface ErrorIssue {
  readonly path: string
  readonly message: string
}

/**
 * A failed call. `code` is a union of every code the client can see, so a
 * `switch (error.code)` narrows and a misspelt case is a compile error.
 *
 * @example
 * const { error } = await client.signIn.email({ email, password })
 * if (error?.code === 'INVALID_EMAIL_OR_PASSWORD') showMessage(error.message)
 */
export interface AuthClientError<Code extends string = string> {
  readonly status: number
  readonly code: Code
  readonly message: string
  /** Present on validation errors, the server's (`VALIDATION_ERROR`) and the client's. */
  readonly issues?: readonly ErrorIssue[]
  /** `PASSWORD_TOO_SHORT`: the shortest password the server accepts (docs/passwords.md), for a form to say so. */
  readonly minLength?: number
  /** `PASSWORD_TOO_LONG`: the longest password the server accepts. */
  readonly maxLength?: number
}

/**
 * What every call resolves to; it never rejects. Test `error` to narrow: the
 * data of some calls (get-session) may itself be null.
 *
 * @example
 * const result = await client.getSession()
 * if (result.error) return report(result.error)
 * result.data?.user.email
 */
export type CallResult<Data, Code extends string = string> =
  | { readonly data: Data; readonly error: null }
  | { readonly data: null; readonly error: AuthClientError<Code> }

/**
 * A client-side validation error for a response of `status` (docs/client.md#errors).
 *
 * @example
 * return { data: null, error: shapeError(200, [{ path: 'response.user.id', message: 'expected string' }]) }
 */
export function shapeError(status: number, issues: readonly ErrorIssue[]): AuthClientError<'CLIENT_VALIDATION_ERROR'> {
  return { status, code: 'CLIENT_VALIDATION_ERROR', message: ClientErrors.CLIENT_VALIDATION_ERROR.message, issues }
}
