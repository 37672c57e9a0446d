export { scim } from './plugin.js'
export { resolveOptions } from './options.js'
export type { ResolvedScimOptions, ScimOptions } from './options.js'
export { ScimError, ScimErrors } from './errors.js'
export type { ScimErrorCode } from './errors.js'
export { scimSchema } from './schema.js'
export type { ScimEndpoints } from './routes/index.js'
export type { TokenInfo } from './services/tokens.js'
export {
  ENTERPRISE_USER_SCHEMA,
  ERROR_SCHEMA,
  GROUP_SCHEMA,
  LIST_RESPONSE_SCHEMA,
  PATCH_OP_SCHEMA,
  SCIM_MEDIA_TYPE,
  USER_SCHEMA,
} from './protocol/constants.js'
