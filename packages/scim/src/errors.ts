/**
 * @module
 * The SCIM plugin's error catalogue (docs/scim.md#errors). The token routes
 * are called by the application's own pages and answer core's
 * `{ code, message }`. The SCIM routes are called by a directory and answer
 * the SCIM error body of RFC 7644 §3.12, `{ schemas, status, scimType?,
 * detail }` as `application/scim+json`: `ScimError` carries the `scimType`
 * of its code and renders that body.
 */
import { AuthError, defineErrors, type AuthErrorOptions, type ErrorDefinition } from '@gatehouse/core'
import { ERROR_SCHEMA } from './protocol/constants.js'

/**
 * @example
 * throw new AuthError(ScimErrors.SCIM_TOKEN_NOT_FOUND) // 404 {"code":"SCIM_TOKEN_NOT_FOUND","message":"SCIM token not found"}
 * throw new ScimError(ScimErrors.UNIQUENESS, { message: 'userName is already taken' }) // 409 SCIM error body
 */
export const ScimErrors = defineErrors({
  // Token management: an organization's owners and admins (docs/scim.md#tokens)
  YOU_ARE_NOT_A_MEMBER_OF_THE_ORGANIZATION: { status: 403, message: 'You are not a member of the organization' },
  YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM_TOKENS: { status: 403, message: 'You are not allowed to manage SCIM tokens of this organization' },
  SCIM_TOKEN_NOT_FOUND: { status: 404, message: 'SCIM token not found' },
  TOO_MANY_SCIM_TOKENS: { status: 403, message: 'This organization has reached its number of SCIM tokens' },
  IMPERSONATION_NOT_ALLOWED: { status: 403, message: 'An impersonation session cannot manage SCIM tokens' },
  ORGANIZATION_PLUGIN_REQUIRED: { status: 500, message: 'The SCIM plugin needs the organization plugin' },

  // The SCIM protocol (RFC 7644 §3.12): the `scimType` of each is in `scimTypes` below
  INVALID_TOKEN: { status: 401, message: 'A valid SCIM bearer token is required' },
  RESOURCE_NOT_FOUND: { status: 404, message: 'Resource not found' },
  INVALID_SYNTAX: { status: 400, message: 'The request body is not a valid SCIM message' },
  INVALID_FILTER: { status: 400, message: 'The filter is not valid' },
  INVALID_VALUE: { status: 400, message: 'An attribute has an invalid value' },
  INVALID_PATH: { status: 400, message: 'The path is not valid' },
  NO_TARGET: { status: 400, message: 'The path matches no value' },
  MUTABILITY: { status: 400, message: 'The attribute cannot be changed' },
  TOO_MANY: { status: 400, message: 'The request names too many resources' },
  UNIQUENESS: { status: 409, message: 'The value is already taken in this organization' },
  FORBIDDEN: { status: 403, message: 'The operation is not permitted' },
  PRECONDITION_FAILED: { status: 412, message: 'The resource changed since the version given in If-Match' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send the body as application/scim+json or application/json' },
  NOT_IMPLEMENTED: { status: 501, message: 'The operation is not supported' },
})

export type ScimErrorCode = keyof typeof ScimErrors

/** The `scimType` of RFC 7644 §3.12 Table 9, for the codes that have one. */
const scimTypes: Partial<Record<ScimErrorCode, string>> = {
  INVALID_SYNTAX: 'invalidSyntax',
  INVALID_FILTER: 'invalidFilter',
  INVALID_VALUE: 'invalidValue',
  INVALID_PATH: 'invalidPath',
  NO_TARGET: 'noTarget',
  MUTABILITY: 'mutability',
  TOO_MANY: 'tooMany',
  UNIQUENESS: 'uniqueness',
}

/**
 * An `AuthError` whose JSON is the SCIM error body. `message` replaces the
 * catalogue text as the `detail`.
 *
 * @example
 * throw new ScimError(ScimErrors.INVALID_FILTER, { message: 'Unsupported operator "xx"' })
 * // 400 {"schemas":["urn:ietf:params:scim:api:messages:2.0:Error"],"status":"400","scimType":"invalidFilter","detail":"Unsupported operator \"xx\""}
 */
export class ScimError extends AuthError<ScimErrorCode> {
  constructor(definition: ErrorDefinition<ScimErrorCode>, options: AuthErrorOptions = {}) {
    super(definition, options)
  }

  get scimType(): string | undefined {
    return scimTypes[this.code]
  }

  override toJSON(): Record<string, unknown> {
    const scimType = this.scimType
    return { schemas: [ERROR_SCHEMA], status: String(this.status), ...(scimType ? { scimType } : {}), detail: this.message }
  }
}
