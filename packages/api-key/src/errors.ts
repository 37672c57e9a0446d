/**
 * @module
 * The API key plugin's errors (docs/api-key.md#using-a-key). Codes, messages and
 * statuses are the leading library's, so its `apiKeyClient()` narrows them
 * unchanged.
 */
import { defineErrors } from '@gatehouse/core'

export const ApiKeyErrors = defineErrors({
  INVALID_METADATA_TYPE: { status: 400, message: 'metadata must be an object or undefined' },
  REFILL_AMOUNT_AND_INTERVAL_REQUIRED: { status: 400, message: 'refillAmount is required when refillInterval is provided' },
  REFILL_INTERVAL_AND_AMOUNT_REQUIRED: { status: 400, message: 'refillInterval is required when refillAmount is provided' },
  USER_BANNED: { status: 401, message: 'User is banned' },
  UNAUTHORIZED_SESSION: { status: 401, message: 'Unauthorized or invalid session' },
  KEY_NOT_FOUND: { status: 404, message: 'API Key not found' },
  KEY_DISABLED: { status: 401, message: 'API Key is disabled' },
  KEY_EXPIRED: { status: 401, message: 'API Key has expired' },
  USAGE_EXCEEDED: { status: 429, message: 'API Key has reached its usage limit' },
  EXPIRES_IN_IS_TOO_SMALL: { status: 400, message: 'The expiresIn is smaller than the predefined minimum value.' },
  EXPIRES_IN_IS_TOO_LARGE: { status: 400, message: 'The expiresIn is larger than the predefined maximum value.' },
  INVALID_REMAINING: { status: 400, message: 'The remaining count is either too large or too small.' },
  INVALID_PREFIX_LENGTH: { status: 400, message: 'The prefix length is either too large or too small.' },
  INVALID_NAME_LENGTH: { status: 400, message: 'The name length is either too large or too small.' },
  METADATA_DISABLED: { status: 400, message: 'Metadata is disabled.' },
  RATE_LIMIT_EXCEEDED: { status: 429, message: 'Rate limit exceeded.' },
  NO_VALUES_TO_UPDATE: { status: 400, message: 'No values to update.' },
  KEY_DISABLED_EXPIRATION: { status: 400, message: 'Custom key expiration values are disabled.' },
  INVALID_API_KEY: { status: 401, message: 'Invalid API key.' },
  INVALID_REFERENCE_ID_FROM_API_KEY: { status: 401, message: 'The reference id from the API key is invalid.' },
  SERVER_ONLY_PROPERTY: { status: 400, message: "The property you're trying to set can only be set from the server auth instance only." },
  NAME_REQUIRED: { status: 400, message: 'API Key name is required.' },
  USER_NOT_MEMBER_OF_ORGANIZATION: { status: 403, message: 'You are not a member of the organization that owns this API key.' },
  INSUFFICIENT_API_KEY_PERMISSIONS: { status: 403, message: 'You do not have permission to perform this action on organization API keys.' },
  ORGANIZATION_PLUGIN_REQUIRED: {
    status: 500,
    message: 'Organization plugin is required for organization-owned API keys. Please install and configure the organization plugin.',
  },
  // Ours: a key's permissions are bounded by its creator's in the organization (docs/api-key.md#organization-keys).
  PERMISSIONS_EXCEED_CREATOR: { status: 403, message: "An organization key's permissions cannot exceed its creator's." },
})

export type ApiKeyErrorCode = keyof typeof ApiKeyErrors
