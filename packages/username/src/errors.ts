/**
 * @module
 * The username plugin's errors (docs/username.md#errors). Codes and messages
 * are the leading library's, so its `usernameClient()` reads them unchanged.
 */
import { defineErrors } from '@gatehouse/core'

export const UsernameErrors = defineErrors({
  INVALID_USERNAME_OR_PASSWORD: { status: 401, message: 'Invalid username or password' },
  USERNAME_IS_ALREADY_TAKEN: { status: 400, message: 'Username is already taken. Please try another.' },
  USERNAME_TOO_SHORT: { status: 400, message: 'Username is too short' },
  USERNAME_TOO_LONG: { status: 400, message: 'Username is too long' },
  INVALID_USERNAME: { status: 400, message: 'Username is invalid' },
  INVALID_DISPLAY_USERNAME: { status: 400, message: 'Display username is invalid' },
  USERNAME_IS_IMMUTABLE: { status: 400, message: 'Username cannot be updated' },
})
