/**
 * @module
 * The username endpoints by `auth.api` name (docs/username.md#routes), named as the leading library's.
 */
import type { ResolvedUsernameOptions } from '../options.js'
import { isUsernameAvailable } from './is-username-available.js'
import { signInUsername } from './sign-in-username.js'

export function usernameEndpoints(options: ResolvedUsernameOptions) {
  return {
    signInUsername: signInUsername(options),
    isUsernameAvailable: isUsernameAvailable(options),
  }
}

export type UsernameEndpoints = ReturnType<typeof usernameEndpoints>
