/**
 * @module
 * The user fields of the username plugin (docs/username.md#tables), named as
 * the leading library's: `username`, the normalised form, unique (the index
 * decides two sign-ups racing for one name); `displayUsername`, as typed.
 * `input: false`: core's additional-field filter never lets a client write
 * them; the plugin's `userInput` does, after its checks.
 */
import type { SchemaExtension } from '@gatehouse/core'

export const usernameSchema = {
  user: {
    fields: {
      username: { type: 'string', required: false, unique: true, input: false },
      displayUsername: { type: 'string', required: false, input: false },
    },
  },
} as const satisfies SchemaExtension
