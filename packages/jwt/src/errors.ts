/**
 * @module
 * The jwt plugin's errors (docs/jwt.md).
 */
import { defineErrors } from '@gatehouse/core'

export const JwtErrors = defineErrors({
  JWT_CLAIM_RESERVED: { status: 500, message: 'definePayload may not set a registered claim' },
})

export type JwtErrorCode = keyof typeof JwtErrors
