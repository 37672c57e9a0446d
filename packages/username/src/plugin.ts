/**
 * @module
 * `username(options)`: usernames next to email addresses (docs/username.md).
 * Two user fields (schema.ts), the sign-up and update-user input through
 * core's `userInput` (user-input.ts), POST /sign-in/username and POST
 * /is-username-available.
 */
import { definePlugin } from '@gatehouse/core'
import { UsernameErrors } from './errors.js'
import { normalizeUsername } from './names.js'
import { resolveOptions, type UsernameOptions } from './options.js'
import { usernameEndpoints } from './routes/index.js'
import { usernameSchema } from './schema.js'
import { usernameInput } from './user-input.js'

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   emailAndPassword: { enabled: true },
 *   plugins: [username({ reservedUsernames: ['admin', 'billing'] })],
 * })
 */
export function username(options: UsernameOptions = {}) {
  const resolved = resolveOptions(options, normalizeUsername)
  return definePlugin({
    id: 'username',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'usernameClient', from: '@gatehouse/username/client' },
    schema: usernameSchema,
    endpoints: usernameEndpoints(resolved),
    errors: UsernameErrors,
    userInput: usernameInput(resolved),
    rateLimit: [
      // It says which names are taken: slowed per client so a list of accounts takes a long time to draw.
      { pathMatcher: (path: string) => path === '/is-username-available', window: 60, max: 20 },
    ],
  })
}
