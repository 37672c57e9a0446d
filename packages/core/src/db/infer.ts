/**
 * @module
 * Types of configured fields: `additionalFields` written once in the options
 * become properties of the user and session types that `auth.api` returns.
 */
import type { FieldDefinition, FieldType } from './schema.js'

type TypeOf<T extends FieldType> = T extends 'string'
  ? string
  : T extends 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'date'
        ? Date
        : unknown

type Returned<F> = { [K in keyof F as F[K] extends { returned: false } ? never : K]: F[K] }

/**
 * @example
 * type Extra = InferFields<{ plan: { type: 'string'; required: false } }> // { plan?: string | null }
 */
export type InferFields<F> = F extends Readonly<Record<string, FieldDefinition>>
  ? {
      -readonly [K in keyof Returned<F> as Returned<F>[K] extends { required: false } ? never : K]: TypeOf<Returned<F>[K]['type']>
    } & {
      -readonly [K in keyof Returned<F> as Returned<F>[K] extends { required: false } ? K : never]?: TypeOf<
        Returned<F>[K]['type']
      > | null
    }
  : {}
