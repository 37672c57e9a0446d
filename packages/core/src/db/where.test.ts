import { describe, expect, it } from 'vitest'
import type { Where, WhereInput } from './adapter.js'
import { coreSchema, mergeSchemas } from './schema.js'
import { matchesWhere, validateWhere } from './where.js'

const row = {
  id: 'u1',
  email: 'Ada@Example.com',
  note: null,
  rank: 5,
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
  active: true,
}

const cases: ReadonlyArray<[string, WhereInput | undefined, boolean]> = [
  ['no where', undefined, true],
  ['eq string', { field: 'email', value: 'Ada@Example.com' }, true],
  ['eq is case-sensitive', { field: 'email', value: 'ada@example.com' }, false],
  ['eq insensitive', { field: 'email', value: 'ADA@EXAMPLE.COM', insensitive: true }, true],
  ['eq null on a null field', { field: 'note', value: null }, true],
  ['eq null on an absent field', { field: 'missing', value: null }, true],
  ['eq null on a set field', { field: 'email', value: null }, false],
  ['eq value on a null field', { field: 'note', value: 'x' }, false],
  ['ne null on a set field', { field: 'email', operator: 'ne', value: null }, true],
  ['ne null on a null field', { field: 'note', operator: 'ne', value: null }, false],
  ['ne value on a null field', { field: 'note', operator: 'ne', value: 'x' }, true],
  ['ne same value', { field: 'rank', operator: 'ne', value: 5 }, false],
  ['ne insensitive', { field: 'email', operator: 'ne', value: 'ada@example.com', insensitive: true }, false],
  ['eq boolean', { field: 'active', value: true }, true],
  ['eq boolean is not eq 1', { field: 'active', value: 1 }, false],
  ['eq number is not eq string', { field: 'rank', value: '5' }, false],
  ['eq date by time', { field: 'createdAt', value: new Date('2026-01-01T00:00:00.000Z') }, true],
  ['eq date one ms off', { field: 'createdAt', value: new Date('2026-01-01T00:00:00.001Z') }, false],
  ['lt date', { field: 'createdAt', operator: 'lt', value: new Date('2026-01-01T00:00:00.001Z') }, true],
  ['gte date', { field: 'createdAt', operator: 'gte', value: new Date('2026-01-01T00:00:00.000Z') }, true],
  ['gt date', { field: 'createdAt', operator: 'gt', value: new Date('2026-01-01T00:00:00.000Z') }, false],
  ['lt number', { field: 'rank', operator: 'lt', value: 6 }, true],
  ['lte number', { field: 'rank', operator: 'lte', value: 5 }, true],
  ['gt number', { field: 'rank', operator: 'gt', value: 5 }, false],
  ['lt string is code-unit order', { field: 'email', operator: 'lt', value: 'a' }, true],
  ['lt against a null field', { field: 'note', operator: 'lt', value: 'zzz' }, false],
  ['gt against a null value', { field: 'rank', operator: 'gt', value: null }, false],
  ['lt across types', { field: 'rank', operator: 'lt', value: '9' }, false],
  ['in', { field: 'rank', operator: 'in', value: [1, 5] }, true],
  ['in without the value', { field: 'rank', operator: 'in', value: [1, 2] }, false],
  ['in empty', { field: 'rank', operator: 'in', value: [] }, false],
  ['in on a null field', { field: 'note', operator: 'in', value: ['x'] }, false],
  ['in is case-sensitive', { field: 'email', operator: 'in', value: ['ada@example.com'] }, false],
  ['in insensitive', { field: 'email', operator: 'in', value: ['ada@example.com'], insensitive: true }, true],
  ['contains', { field: 'email', operator: 'contains', value: '@Ex' }, true],
  ['contains is case-sensitive', { field: 'email', operator: 'contains', value: '@ex' }, false],
  ['contains insensitive', { field: 'email', operator: 'contains', value: '@ex', insensitive: true }, true],
  ['contains % is literal', { field: 'email', operator: 'contains', value: '%' }, false],
  ['starts_with _ is literal', { field: 'email', operator: 'starts_with', value: '_da' }, false],
  ['starts_with', { field: 'email', operator: 'starts_with', value: 'Ada@' }, true],
  ['ends_with insensitive', { field: 'email', operator: 'ends_with', value: '.COM', insensitive: true }, true],
  ['contains on a null field', { field: 'note', operator: 'contains', value: '' }, false],
  ['contains on a number', { field: 'rank', operator: 'contains', value: '5' }, false],
  ['a list is AND', [{ field: 'rank', value: 5 }, { field: 'active', value: false }], false],
  ['an empty list matches', [], true],
  ['and', { and: [{ field: 'rank', value: 5 }, { field: 'active', value: true }] }, true],
  ['empty and', { and: [] }, true],
  ['or', { or: [{ field: 'rank', value: 4 }, { field: 'active', value: true }] }, true],
  ['empty or', { or: [] }, false],
  ['nested', { or: [{ and: [{ field: 'rank', value: 4 }] }, { and: [{ or: [{ field: 'id', value: 'u1' }] }] }] }, true],
]

describe('matchesWhere', () => {
  it.each(cases)('%s', (_name, where, expected) => {
    expect(matchesWhere(row, where)).toBe(expected)
  })
})

describe('validateWhere', () => {
  const schema = mergeSchemas(coreSchema, { item: { fields: { data: { type: 'json', required: false }, rank: { type: 'number' } } } })
  const valid: WhereInput[] = [
    { field: 'id', value: 'u1' },
    { field: 'email', value: 'a@b.c', insensitive: true },
    { or: [{ field: 'name', operator: 'starts_with', value: 'A' }, { and: [{ field: 'emailVerified', value: true }] }] },
    [{ field: 'createdAt', operator: 'lt', value: new Date() }, { field: 'image', value: null }],
    { field: 'id', operator: 'in', value: [] },
  ]

  it.each(valid.map((where) => [JSON.stringify(where), where] as const))('accepts %s', (_name, where) => {
    expect(() => validateWhere(schema, 'user', where)).not.toThrow()
  })

  it('accepts no where', () => {
    expect(() => validateWhere(schema, 'user', undefined)).not.toThrow()
  })

  const invalid: ReadonlyArray<[unknown, RegExp]> = [
    [{ field: 'emial', value: 'x' }, /Invalid where on model "user": unknown field "emial"/],
    [{ and: [{ field: 'email', value: 'x' }, { or: [{ field: 'nope', value: 1 }] }] }, /unknown field "nope"/],
    [{ field: 'email', operator: 'like', value: 'x' }, /unknown operator "like" on "email"/],
    [{ field: 'email', operator: 'in', value: 'x' }, /"email" in needs an array value/],
    [{ field: 'email', operator: 'in', value: [null] }, /in takes strings and numbers only/],
    [{ field: 'email', value: ['x'] }, /takes a single value; use operator "in"/],
    [{ field: 'email', operator: 'contains', value: 5 }, /"email" contains needs a string value/],
    [{ field: 'email' }, /"email" eq needs a value \(use null to match nulls\)/],
    [{ field: 'email', value: 'x', insensitive: 'yes' }, /"insensitive" on "email" must be a boolean/],
    [{ and: { field: 'email', value: 'x' } }, /"and" and "or" take an array/],
    [{ value: 'x' }, /a condition needs a "field"/],
    [null, /expected a clause object/],
  ]

  it.each(invalid)('rejects %j', (where, message) => {
    // Deliberately malformed input, as it arrives from untyped callers.
    expect(() => validateWhere(schema, 'user', where as Where)).toThrow(message)
  })

  it('only lets json fields be compared with null', () => {
    expect(() => validateWhere(schema, 'item', { field: 'data', value: null })).not.toThrow()
    expect(() => validateWhere(schema, 'item', { field: 'data', operator: 'ne', value: null })).not.toThrow()
    expect(() => validateWhere(schema, 'item', { field: 'data', value: { a: 1 } })).toThrow(/json field "data" can only be compared with null/)
  })

  it('rejects an unknown model', () => {
    expect(() => validateWhere(schema, 'nope', undefined)).toThrow(/Unknown model "nope"/)
  })
})
