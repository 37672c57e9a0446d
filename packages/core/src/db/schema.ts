/**
 * @module
 * The database schema as data: models, their fields and constraints. Core's
 * tables (docs/core.md#tables), every plugin's tables and the
 * application's additional fields are merged into one `Schema`, which the
 * adapters and the migrator read. Every model has an implicit string primary
 * key `id`. Besides single-field `unique`, a model may list composite unique
 * constraints: fields that must be unique together.
 */

export type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'json'

export interface FieldReference {
  readonly model: string
  readonly field: string
  readonly onDelete?: 'cascade' | 'set null' | 'restrict' | undefined
}

export interface FieldDefinition {
  readonly type: FieldType
  /** Defaults to true: the column is NOT NULL and a create must give a value (or a default). */
  readonly required?: boolean | undefined
  readonly unique?: boolean | undefined
  /** Adds a non-unique index. */
  readonly index?: boolean | undefined
  readonly references?: FieldReference | undefined
  /** A constant, or a function evaluated at create time. */
  readonly defaultValue?: unknown
  /** Stored as a 64-bit integer (type `number` only): millisecond timestamps, large counters. */
  readonly bigint?: boolean | undefined
  /** Column name when it differs from the field name. */
  readonly columnName?: string | undefined
  /** Strings are stored lowercased (the user email), whoever writes them, so case never makes two rows. */
  readonly lowercase?: boolean | undefined
  /** False: clients cannot set the field through request bodies (docs/accounts.md#updating-the-user). */
  readonly input?: boolean | undefined
  /**
   * Type `string` only: the longest value, in UTF-16 units, a request body may
   * set (an additional user field on sign-up and update-user: default 1024,
   * docs/accounts.md#input-limits). Checked on input; not a column constraint.
   */
  readonly maxLength?: number | undefined
  /** False: the field is never sent back in responses. */
  readonly returned?: boolean | undefined
}

/**
 * Fields that must be unique together, in index order. As in SQL, a tuple
 * holding a null never collides with another: the constraint only binds rows
 * where every field has a value.
 */
export type CompositeUnique = readonly string[]

export interface ModelDefinition {
  /** Table name when it differs from the model name. */
  readonly tableName?: string | undefined
  /** Name of the `id` primary key column when it is not `id` (set by `applyNaming`, docs/adapters.md#naming-tables-and-columns). */
  readonly idColumnName?: string | undefined
  readonly fields: Readonly<Record<string, FieldDefinition>>
  /** Composite unique constraints, each naming two or more fields (or `id`); one field uses `FieldDefinition.unique`. */
  readonly unique?: readonly CompositeUnique[] | undefined
}

export type Schema = Readonly<Record<string, ModelDefinition>>

/**
 * A schema fragment a plugin or an application contributes: new models,
 * fields on existing ones, or composite unique constraints on either.
 */
export type SchemaExtension = Readonly<
  Record<
    string,
    {
      readonly tableName?: string | undefined
      readonly fields?: Readonly<Record<string, FieldDefinition>> | undefined
      readonly unique?: readonly CompositeUnique[] | undefined
    }
  >
>

/** Core's own tables (docs/core.md#tables). */
export const coreSchema = {
  user: {
    fields: {
      name: { type: 'string' },
      email: { type: 'string', unique: true, lowercase: true },
      emailVerified: { type: 'boolean', defaultValue: false },
      image: { type: 'string', required: false },
      createdAt: { type: 'date' },
      updatedAt: { type: 'date' },
      // Changed by every revocation of the user's credentials; a sign-in creates its session only
      // while it still holds the version it read before checking the credential (docs/sessions.md#sign-ins-racing-a-revocation).
      credentialVersion: { type: 'string', required: false, input: false, returned: false },
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
      // How the sign-in was proven, as space-separated RFC 8176 values ("pwd", "pwd otp mfa"), for the
      // OpenID Provider's `amr` claim (docs/sessions.md#how-a-session-was-signed-in).
      amr: { type: 'string', required: false, input: false, returned: false },
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
    // One account per provider identity. A credential account's accountId is
    // the user id, so this also means one credential account per user: two
    // concurrent set-password or reset-password calls cannot both insert one,
    // which a read-then-insert under READ COMMITTED would allow.
    unique: [['providerId', 'accountId']],
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
 * existing models are appended, composite unique constraints are appended to
 * the model's list (an identical one is kept once). A field that already
 * exists is an error, so two plugins cannot silently fight over one column;
 * so is a constraint naming a field the merged model does not have.
 *
 * @example
 * const schema = mergeSchemas(coreSchema, organizationPlugin.schema, { user: { fields: { plan: { type: 'string', required: false } } } })
 *
 * @example
 * // a plugin making (organizationId, slug) unique on its own model
 * mergeSchemas(coreSchema, { team: { fields: { organizationId: { type: 'string' }, slug: { type: 'string' } }, unique: [['organizationId', 'slug']] } })
 */
export function mergeSchemas(base: Schema, ...extensions: ReadonlyArray<SchemaExtension | undefined>): Schema {
  const merged: Record<string, MergingModel> = {}
  for (const [model, definition] of Object.entries(base)) merged[model] = startModel(definition)
  for (const extension of extensions) {
    if (!extension) continue
    for (const [model, definition] of Object.entries(extension)) {
      const target = merged[model]
      if (!target) {
        merged[model] = startModel(definition)
        continue
      }
      if (definition.tableName) target.tableName = definition.tableName
      for (const [field, fieldDefinition] of Object.entries(definition.fields ?? {})) {
        // The same definition object again (two plugins listing the shared `jwksSchema`) adds nothing.
        if (target.fields[field] === fieldDefinition) continue
        if (field === 'id' || field in target.fields) {
          // Redeclaring a field is the way people try to rename its column; naming is the way that works.
          throw new Error(
            `Schema conflict: field "${model}.${field}" is defined twice. To store it under another column name, use \`naming.models.${model}.columns\` (docs/adapters.md#naming-tables-and-columns)`,
          )
        }
        target.fields[field] = fieldDefinition
      }
      appendUnique(target.unique, definition.unique)
    }
  }
  const schema: Record<string, ModelDefinition> = {}
  for (const [model, { unique, ...definition }] of Object.entries(merged)) {
    schema[model] = unique.length > 0 ? { ...definition, unique } : definition
  }
  validateCompositeUniques(schema)
  return schema
}

interface MergingModel {
  tableName?: string | undefined
  fields: Record<string, FieldDefinition>
  unique: CompositeUnique[]
}

function startModel(definition: SchemaExtension[string]): MergingModel {
  const model: MergingModel = { fields: { ...definition.fields }, unique: [] }
  if (definition.tableName !== undefined) model.tableName = definition.tableName
  appendUnique(model.unique, definition.unique)
  return model
}

function appendUnique(target: CompositeUnique[], added: readonly CompositeUnique[] | undefined): void {
  for (const fields of added ?? []) {
    // Two plugins asking for the same constraint need one index, not two with one name.
    if (!target.some((existing) => sameFields(existing, fields))) target.push([...fields])
  }
}

function sameFields(a: CompositeUnique, b: CompositeUnique): boolean {
  return a.length === b.length && a.every((field, index) => field === b[index])
}

/**
 * Throws unless every composite unique constraint names two or more distinct
 * fields that its model has (or `id`), none of them `json`. `mergeSchemas` runs it; an adapter
 * given a hand-written schema can too, so a misspelt field fails at start-up
 * instead of silently constraining nothing.
 *
 * @example
 * validateCompositeUniques({ item: { fields: { a: { type: 'string' } }, unique: [['a', 'b']] } }) // throws: "item.b" does not exist
 */
export function validateCompositeUniques(schema: Schema): void {
  for (const [model, definition] of Object.entries(schema)) {
    for (const fields of definition.unique ?? []) {
      const label = `Composite unique constraint [${fields.join(', ')}] on "${model}"`
      if (fields.length < 2) throw new Error(`${label} needs two or more fields; mark a single field \`unique: true\` instead`)
      if (new Set(fields).size !== fields.length) throw new Error(`${label} names a field twice`)
      for (const field of fields) {
        if (field === 'id') continue
        const fieldDefinition = definition.fields[field]
        if (!fieldDefinition) throw new Error(`${label} names "${model}.${field}", which does not exist`)
        // JSON is compared by content nowhere (memory compares objects by identity, MySQL cannot index LONGTEXT).
        if (fieldDefinition.type === 'json') throw new Error(`${label} names "${model}.${field}", a json field, which cannot be unique`)
      }
    }
  }
}

/**
 * `build`, remembered per schema and model: for what every row read or
 * written works out from a model's definition. Schemas are immutable after
 * `mergeSchemas`, so an entry never goes stale.
 *
 * @example
 * const dateFields = perModel((schema, model) => Object.keys(getModel(schema, model).fields).filter(...))
 */
export function perModel<T>(build: (schema: Schema, model: string) => T): (schema: Schema, model: string) => T {
  const built = new WeakMap<Schema, Map<string, T>>()
  return (schema, model) => {
    let models = built.get(schema)
    if (!models) {
      models = new Map()
      built.set(schema, models)
    }
    let found = models.get(model)
    if (found === undefined) {
      found = build(schema, model)
      models.set(model, found)
    }
    return found
  }
}

export function getModel(schema: Schema, model: string): ModelDefinition {
  const definition = schema[model]
  if (!definition) throw new Error(`Unknown model "${model}"`)
  return definition
}

/**
 * @example
 * tableName(applyNaming(coreSchema, { plural: true }), 'user') // 'users'
 */
export function tableName(schema: Schema, model: string): string {
  return getModel(schema, model).tableName ?? model
}

/**
 * The column of a field, `id` included: the name `applyNaming` resolved, else the field name.
 *
 * @example
 * columnName(applyNaming(coreSchema, { casing: 'snake_case' }), 'user', 'emailVerified') // 'email_verified'
 */
export function columnName(schema: Schema, model: string, field: string): string {
  if (field === 'id') return getModel(schema, model).idColumnName ?? 'id'
  const definition = getModel(schema, model).fields[field]
  if (!definition) throw new Error(`Unknown field "${model}.${field}"`)
  return definition.columnName ?? field
}

export function isRequired(field: FieldDefinition): boolean {
  return field.required !== false
}
