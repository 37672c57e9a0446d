import { describe, expect, it } from 'vitest'
import { coreSchema, mergeSchemas, validateCompositeUniques, type Schema } from './schema.js'

describe('composite unique constraints in the schema', () => {
  it("core's account is unique on (providerId, accountId), and merging keeps it", () => {
    expect(coreSchema.account.unique).toEqual([['providerId', 'accountId']])
    expect(mergeSchemas(coreSchema).account?.unique).toEqual([['providerId', 'accountId']])
    // Models without composite constraints keep their shape.
    expect(mergeSchemas(coreSchema).user).not.toHaveProperty('unique')
  })

  it('appends an extension’s constraints to an existing model, without repeating an identical one', () => {
    const merged = mergeSchemas(
      coreSchema,
      { account: { fields: { tenantId: { type: 'string' } }, unique: [['tenantId', 'accountId']] } },
      { account: { unique: [['providerId', 'accountId'], ['userId', 'tenantId']] } },
    )
    expect(merged.account?.unique).toEqual([
      ['providerId', 'accountId'],
      ['tenantId', 'accountId'],
      ['userId', 'tenantId'],
    ])
    expect(Object.keys(merged.account?.fields ?? {})).toContain('tenantId')
  })

  it('takes constraints on new models, which may name id and fields a later extension adds', () => {
    const merged = mergeSchemas(
      coreSchema,
      { team: { tableName: 'teams', fields: { orgId: { type: 'string' } }, unique: [['orgId', 'slug'], ['id', 'orgId']] } },
      { team: { fields: { slug: { type: 'string' } } } },
    )
    expect(merged.team).toEqual({
      tableName: 'teams',
      fields: { orgId: { type: 'string' }, slug: { type: 'string' } },
      unique: [
        ['orgId', 'slug'],
        ['id', 'orgId'],
      ],
    })
  })

  it('copies the lists, so a caller changing its extension afterwards changes nothing merged', () => {
    const fields = ['providerId', 'userId']
    const merged = mergeSchemas(coreSchema, { account: { unique: [fields] } })
    fields.push('scope')
    expect(merged.account?.unique?.[1]).toEqual(['providerId', 'userId'])
  })

  it.each([
    [{ account: { unique: [['providerId', 'acountId']] } }, /names "account.acountId", which does not exist/],
    [{ account: { unique: [['providerId']] } }, /needs two or more fields; mark a single field `unique: true` instead/],
    [{ account: { unique: [['providerId', 'providerId']] } }, /names a field twice/],
    [{ widget: { fields: { a: { type: 'string' }, meta: { type: 'json' } }, unique: [['a', 'meta']] } }, /"widget.meta", a json field, which cannot be unique/],
  ] as const)('rejects a constraint that cannot be enforced (%#)', (extension, message) => {
    expect(() => mergeSchemas(coreSchema, extension)).toThrow(message)
  })

  it('validateCompositeUniques checks a hand-written schema the same way', () => {
    const good: Schema = { item: { fields: { a: { type: 'string' }, b: { type: 'number' } }, unique: [['a', 'b']] } }
    expect(() => validateCompositeUniques(good)).not.toThrow()
    const bad: Schema = { item: { fields: { a: { type: 'string' } }, unique: [['a', 'b']] } }
    expect(() => validateCompositeUniques(bad)).toThrow('Composite unique constraint [a, b] on "item" names "item.b", which does not exist')
  })
})

describe('redeclaring a field', () => {
  it('is a conflict whose message points at naming, the way to rename a column', () => {
    expect(() => mergeSchemas(coreSchema, { user: { fields: { emailVerified: { type: 'boolean', columnName: 'email_verified' } } } })).toThrow(
      'Schema conflict: field "user.emailVerified" is defined twice. To store it under another column name, use `naming.models.user.columns`',
    )
  })
})
