/**
 * @module
 * The user field of `storeInDatabase: true` (docs/last-login-method.md#storing-it-on-the-user),
 * named as the leading library's. `input: false`: core's additional-field
 * filter never lets a client write it; only this plugin does, after a sign-in.
 */
import type { SchemaExtension } from '@gatehouse/core'

export const lastLoginMethodSchema = {
  user: {
    fields: {
      lastLoginMethod: { type: 'string', required: false, input: false },
    },
  },
} as const satisfies SchemaExtension
