/**
 * @module
 * The multi-session plugin's errors (docs/multi-session.md#errors): the
 * leading library's code and message, so its `multiSessionClient()` reads them.
 */
import { defineErrors } from '@gatehouse/core'

export const MultiSessionErrors = defineErrors({
  INVALID_SESSION_TOKEN: { status: 401, message: 'Invalid session token' },
})

export type MultiSessionErrorCode = keyof typeof MultiSessionErrors
