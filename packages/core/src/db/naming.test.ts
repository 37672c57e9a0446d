import { describe, expect, it } from 'vitest'
import { applyNaming, pluralise, snakeCase } from './naming.js'
import { columnName, coreSchema, mergeSchemas, tableName, type Schema } from './schema.js'

const withPlugin: Schema = mergeSchemas(coreSchema, {
  passkey: { fields: { userId: { type: 'string', references: { model: 'user', field: 'id' } }, publicKey: { type: 'string' } } },
  twoFactor: { fields: { backupCodes: { type: 'string' } } },
  identity: { tableName: 'plugin_identities', fields: { subjectID: { type: 'string', columnName: 'sub' } } },
})

function names(schema: Schema): Record<string, string[]> {
  return Object.fromEntries(
    Object.keys(schema).map((model) => [
      tableName(schema, model),
      ['id', ...Object.keys(schema[model]?.fields ?? {})].map((field) => columnName(schema, model, field)),
    ]),
  )
}

describe('applyNaming', () => {
  it('without naming gives every table and column the name it had before', () => {
    expect(names(applyNaming(withPlugin, undefined))).toEqual(names(withPlugin))
    expect(Object.keys(names(applyNaming(coreSchema, {})))).toEqual(['user', 'session', 'account', 'verification', 'rateLimit'])
  })

  it('pluralises every table name and writes snake_case, keeping a name the schema gives', () => {
    const schema = applyNaming(withPlugin, { plural: true, casing: 'snake_case' })
    expect(Object.keys(names(schema))).toEqual(['users', 'sessions', 'accounts', 'verifications', 'rate_limits', 'passkeys', 'two_factors', 'plugin_identities'])
    expect(columnName(schema, 'user', 'emailVerified')).toBe('email_verified')
    expect(columnName(schema, 'account', 'accessTokenExpiresAt')).toBe('access_token_expires_at')
    expect(columnName(schema, 'identity', 'subjectID')).toBe('sub')
    expect(columnName(schema, 'user', 'id')).toBe('id')
  })

  it('plural alone keeps camelCase: rateLimit → rateLimits, twoFactor → twoFactors', () => {
    const schema = applyNaming(withPlugin, { plural: true })
    expect(tableName(schema, 'rateLimit')).toBe('rateLimits')
    expect(tableName(schema, 'twoFactor')).toBe('twoFactors')
    expect(columnName(schema, 'user', 'emailVerified')).toBe('emailVerified')
  })

  it('lets naming.models win over plural, casing and the schema’s own names, id included', () => {
    const schema = applyNaming(withPlugin, {
      plural: true,
      casing: 'snake_case',
      models: {
        user: { tableName: 'app_users', columns: { id: 'user_id', emailVerified: 'is_verified' } },
        identity: { tableName: 'identities', columns: { subjectID: 'subject' } },
      },
    })
    expect(tableName(schema, 'user')).toBe('app_users')
    expect(columnName(schema, 'user', 'id')).toBe('user_id')
    expect(columnName(schema, 'user', 'emailVerified')).toBe('is_verified')
    expect(columnName(schema, 'user', 'createdAt')).toBe('created_at')
    expect(tableName(schema, 'identity')).toBe('identities')
    expect(columnName(schema, 'identity', 'subjectID')).toBe('subject')
    // A reference to user.id follows the renamed column.
    const reference = schema.session?.fields.userId?.references
    expect(reference && columnName(schema, reference.model, reference.field)).toBe('user_id')
  })

  it('refuses a naming.models entry for an unknown model or field, and an empty name', () => {
    expect(() => applyNaming(coreSchema, { models: { users: { tableName: 'users' } } })).toThrow('`naming.models.users` names no model; the models are user, session')
    expect(() => applyNaming(coreSchema, { models: { user: { columns: { verified: 'is_verified' } } } })).toThrow(
      '`naming.models.user.columns.verified` names no field of "user"',
    )
    expect(() => applyNaming(coreSchema, { models: { user: { tableName: ' ' } } })).toThrow('`naming.models.user.tableName` must be a non-empty string')
    expect(() => applyNaming(coreSchema, { casing: 'kebab-case' as 'snake_case' })).toThrow("`naming.casing` must be 'camelCase' or 'snake_case'")
  })

  it('refuses two fields of one table on one column, ignoring case as MySQL and SQLite do', () => {
    expect(() => applyNaming(coreSchema, { models: { user: { columns: { name: 'email' } } } })).toThrow(
      'fields "user.name" and "user.email" are both named column "email" of table "user"',
    )
    expect(() => applyNaming(coreSchema, { models: { user: { columns: { name: 'ID' } } } })).toThrow('fields "user.id" and "user.name" are both named column "ID"')
    const clash = mergeSchemas(coreSchema, { user: { fields: { email_verified: { type: 'string' } } } })
    expect(() => applyNaming(clash, { casing: 'snake_case' })).toThrow('fields "user.emailVerified" and "user.email_verified" are both named column "email_verified"')
    expect(applyNaming(clash, undefined).user?.fields.email_verified?.columnName).toBe('email_verified')
  })

  it('refuses two models on one table', () => {
    expect(() => applyNaming(coreSchema, { models: { session: { tableName: 'USER' } } })).toThrow('models "user" and "session" are both named table "USER"')
  })
})

describe('snakeCase and pluralise', () => {
  it('splits words at capitals, a run of capitals being one word', () => {
    expect(['emailVerified', 'rateLimit', 'userID', 'ipAddress', 'twoFactor2fa', 'id'].map(snakeCase)).toEqual([
      'email_verified',
      'rate_limit',
      'user_id',
      'ip_address',
      'two_factor2fa',
      'id',
    ])
  })

  it('follows the English rules on the last word', () => {
    expect(['user', 'passkey', 'identity', 'status', 'box', 'batch', 'wish', 'quiz', 'rate_limit', 'apiKEY'].map(pluralise)).toEqual([
      'users',
      'passkeys',
      'identities',
      'statuses',
      'boxes',
      'batches',
      'wishes',
      'quizes',
      'rate_limits',
      'apiKEYS',
    ])
  })
})
