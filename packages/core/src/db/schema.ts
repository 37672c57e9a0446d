/**
 * @module
 * The database schema as data: models, their fields and constraints. Core's
 * tables (SPEC §3 "Identity entities"), every plugin's tables and the
 * application's additional fields are merged into one `Schema`, which the
 * adapters and the migrator read. Every model has an implicit string primary
 * key `id`.
 */

export type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'json'

export interface FieldReference {
  readonly model: string
  readonly field: string
  readonly onDelete?: 'cascade' | 'set null' | 'restrict'
}

export interface FieldDefinition {
  readonly type: FieldType
  /** Defaults to true: the column is NOT NULL and a create must give a value (or a default). */
  readonly required?: boolean
  readonly unique?: boolean
  /** Adds a non-unique index. */
  readonly index?: boolean
  readonly references?: FieldReference
  /** A constant, or a function evaluated at create time. */
  readonly defaultValue?: unknown
  /** Stored as a 64-bit integer (type `number` only): millisecond timestamps, large counters. */
  readonly bigint?: boolean
  /** Column name when it differs from the field name. */
  readonly columnName?: string
  /** Strings are stored lowercased (SPEC §3: user email), whoever writes them. */
  readonly lowercase?: boolean
  /** False: clients cannot set the field through request bodies (SPEC §5 "Account changes"). */
  readonly input?: boolean
  /** False: the field is never sent back in responses. */
  readonly returned?: boolean
}

export interface ModelDefinition {
  /** Table name when it differs from the model name. */
  readonly tableName?: string
  readonly fields: Readonly<Record<string, FieldDefinition>>
}

export type Schema = Readonly<Record<string, ModelDefinition>>

/** A schema fragment a plugin or an application contributes: new models, or fields on existing ones. */
export type SchemaExtension = Readonly<Record<string, { readonly tableName?: string; readonly fields: Readonly<Record<string, FieldDefinition>> }>>

/** SPEC §3 "Identity entities". */
export const coreSchema = {
  user: {
    fields: {
      name: { type: 'string' },
      email: { type: 'string', unique: true, lowercase: true },
      emailVerified: { type: 'boolean', defaultValue: false },
      image: { type: 'string', required: false },
      createdAt: { type: 'date' },
      updatedAt: { type: 'date' },
    },
  },
  session: {
    fields: {
      userId: { type: 'string', index: true, references: { model: 'user', field: 'id', onDelete: 'cascade' } },
      // Holds the SHA-256 of the session token, never the token itself: a
      // handle that names the session (list, revoke) but cannot be used as one.
      token: { type: 'string', unique: true },
      expiresAt: { type: 'date' },
      createdAt: { type: 'date' },
      updatedAt: { type: 'date' },
      ipAddress: { type: 'string', required: false },
      userAgent: { type: 'string', required: false },
    },
  },
  account: {
    fields: {
      providerId: { type: 'string' },
      accountId: { type: 'string' },
      userId: { type: 'string', index: true, references: { model: 'user', field: 'id', onDelete: 'cascade' } },
      accessToken: { type: 'string', required: false, returned: false },
      refreshToken: { type: 'string', required: false, returned: false },
      idToken: { type: 'string', required: false, returned: false },
      accessTokenExpiresAt: { type: 'date', required: false },
      refreshTokenExpiresAt: { type: 'date', required: false },
      scope: { type: 'string', required: false },
      password: { type: 'string', required: false, returned: false },
      createdAt: { type: 'date' },
      updatedAt: { type: 'date' },
    },
  },
  verification: {
    fields: {
      identifier: { type: 'string', index: true },
      value: { type: 'string' },
      expiresAt: { type: 'date' },
      createdAt: { type: 'date' },
      updatedAt: { type: 'date' },
    },
  },
  rateLimit: {
    fields: {
      key: { type: 'string', unique: true },
      count: { type: 'number' },
      // Start of the current window, in epoch milliseconds (docs/rate-limits.md).
      lastRequest: { type: 'number', bigint: true },
    },
  },
} as const satisfies Schema

/**
 * Merges extensions into a base schema: new models are added, fields on
 * existing models are appended. A field that already exists is an error,
 * so two plugins cannot silently fight over one column.
 *
 * @example
 * const schema = mergeSchemas(coreSchema, organizationPlugin.schema, { user: { fields: { plan: { type: 'string', required: false } } } })
 */
export function mergeSchemas(base: Schema, ...extensions: ReadonlyArray<SchemaExtension | undefined>): Schema {
  const merged: Record<string, { tableName?: string; fields: Record<string, FieldDefinition> }> = {}
  for (const [model, definition] of Object.entries(base)) {
    merged[model] = { ...definition, fields: { ...definition.fields } }
  }
  for (const extension of extensions) {
    if (!extension) continue
    for (const [model, definition] of Object.entries(extension)) {
      const target = merged[model]
      if (!target) {
        merged[model] = { ...definition, fields: { ...definition.fields } }
        continue
      }
      if (definition.tableName) target.tableName = definition.tableName
      for (const [field, fieldDefinition] of Object.entries(definition.fields)) {
        if (field === 'id' || field in target.fields) {
          throw new Error(`Schema conflict: field "${model}.${field}" is defined twice`)
        }
        target.fields[field] = fieldDefinition
      }
    }
  }
  return merged
}

export function getModel(schema: Schema, model: string): ModelDefinition {
  const definition = schema[model]
  if (!definition) throw new Error(`Unknown model "${model}"`)
  return definition
}

export function tableName(schema: Schema, model: string): string {
  return getModel(schema, model).tableName ?? model
}

export function columnName(schema: Schema, model: string, field: string): string {
  if (field === 'id') return 'id'
  const definition = getModel(schema, model).fields[field]
  if (!definition) throw new Error(`Unknown field "${model}.${field}"`)
  return definition.columnName ?? field
}

export function isRequired(field: FieldDefinition): boolean {
  return field.required !== false
}
