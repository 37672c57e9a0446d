export { AuthError, defineErrors, HttpStatus, isAuthError } from './catalogue.js'
export type { AuthErrorOptions, ErrorCatalogue, ErrorDefinition } from './catalogue.js'
export { CoreErrors } from './core-errors.js'
export type { CoreErrorCode } from './core-errors.js'
