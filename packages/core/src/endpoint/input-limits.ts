/**
 * @module
 * Length caps on the client strings core stores or forwards
 * (docs/accounts.md#input-limits, docs/social.md#input-limits). Without them
 * one request could write up to the 1 MiB body cap into a user row (copied
 * again into every session's secondary-storage entry and cookie cache) or a
 * verification row, and a flood of such requests fills the database.
 * The caps are generous for real data: a name, a URL, an OAuth scope.
 * A value over its cap is a 400 VALIDATION_ERROR naming the field.
 */

/** `name` on sign-up and update-user. */
export const MAX_NAME_LENGTH = 256
/** `image` on sign-up and update-user: a URL, not the image itself. */
export const MAX_IMAGE_LENGTH = 2048
/** Redirect targets (`callbackURL`, `redirectTo`, ...), in any body or query. */
export const MAX_REDIRECT_URL_LENGTH = 2048
/** Each entry of `scopes` on sign-in/social and link-social. */
export const MAX_SCOPE_LENGTH = 256
/** Entries in `scopes`. */
export const MAX_SCOPES = 50
/** `loginHint` on sign-in/social: an email address or a provider's account hint. */
export const MAX_LOGIN_HINT_LENGTH = 320
/** `idToken.{token, accessToken, refreshToken}`: provider tokens are kept encrypted on the account. */
export const MAX_PROVIDER_TOKEN_LENGTH = 16_384
/** A string additional user field without its own `maxLength` (docs/accounts.md#input-limits). */
export const DEFAULT_MAX_FIELD_LENGTH = 1024

/** zod's own wording for a string over its `.max()`, used where a check is written by hand. */
export function tooLongMessage(max: number): string {
  return `Too big: expected string to have <=${max} characters`
}
