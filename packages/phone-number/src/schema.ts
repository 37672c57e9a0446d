/**
 * @module
 * The user fields of the phone-number plugin (docs/phone-number.md#tables),
 * named as the leading library's: `phoneNumber` in E.164, unique (the index
 * decides two accounts racing for one number), and `phoneNumberVerified`.
 * Both `input: false`: a number is set only by proving it with a code, so
 * nobody can claim a number they do not hold and keep its owner out.
 */
import type { SchemaExtension } from '@gatehouse/core'

export const phoneNumberSchema = {
  user: {
    fields: {
      phoneNumber: { type: 'string', required: false, unique: true, input: false },
      phoneNumberVerified: { type: 'boolean', required: false, input: false },
    },
  },
} as const satisfies SchemaExtension
