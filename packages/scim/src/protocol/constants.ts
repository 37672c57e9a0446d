/**
 * @module
 * The names SCIM 2.0 fixes on the wire (RFC 7643 §8.7, RFC 7644 §3): schema
 * URNs, message URNs and the media type, and the routes' base path below
 * Gatehouse's `basePath` (docs/scim.md#endpoints).
 */

export const SCIM_MEDIA_TYPE = 'application/scim+json'

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group'
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'
export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error'
export const SERVICE_PROVIDER_CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'
export const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType'
export const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema'

/** Below `basePath`: `/api/auth/scim/v2/Users` by default. */
export const SCIM_BASE_PATH = '/scim/v2'

/** Most resources one list answer holds (`count` above it is lowered: RFC 7644 §3.4.2.4). */
export const MAX_RESULTS = 100
