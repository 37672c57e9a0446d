/**
 * @module
 * `user.isAnonymous` (docs/anonymous.md#tables), named as the leading
 * library's: true for a guest. `input: false`: only the plugin sets it.
 */
import type { SchemaExtension } from '@gatehouse/core'

export const anonymousSchema = {
  user: {
    fields: {
      isAnonymous: { type: 'boolean', required: false, input: false, defaultValue: false },
    },
  },
} as const satisfies SchemaExtension
