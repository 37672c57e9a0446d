/**
 * Proves the adapter conformance suite catches real adapter bugs: the
 * in-memory adapter is wrapped in deliberately broken variants (the mistakes
 * SQL adapters make: non-atomic consume, no rollback, case-insensitive
 * collations, unescaped LIKE, naive `<>`, lossy types...) and the cases that
 * guard against each mistake must fail with `ConformanceAssertionError`,
 * while the same cases pass on the intact adapter.
 */
import { describe, expect, it } from 'vitest'
import type { Adapter, Condition, Joins, Row, SortBy, Where, WhereInput } from '../src/db/adapter.js'
import { DatabaseError } from '../src/db/adapter.js'
import { memoryAdapter } from '../src/db/memory/index.js'
import type { FieldDefinition, ModelDefinition, Schema } from '../src/db/schema.js'
import {
  ConformanceAssertionError,
  conformanceCaseNames,
  conformanceSchema,
  createConformanceSuite,
  namedConformanceSchema,
  runAdapterConformance,
  type AdapterConformanceOptions,
} from '../src/testing/index.js'

type FindOneArgs = { model: string; where: WhereInput; join?: Joins }
type FindManyArgs = { model: string; where?: WhereInput; sortBy?: SortBy | readonly SortBy[]; limit?: number; offset?: number; join?: Joins }

/** Overrides for some methods; `self` is the broken adapter itself, `inner` the intact one. */
type Breakage = (inner: Adapter, self: Adapter) => Partial<Adapter>

/** Wraps `inner` (and every `tx` it hands out) with the overrides. */
function broken(inner: Adapter, breakage: Breakage): Adapter {
  const self: Adapter = {
    ...inner,
    transaction: (fn) => inner.transaction((tx) => fn(broken(tx, breakage))),
  }
  return Object.assign(self, breakage(inner, self))
}

function mapWhere(where: WhereInput, rewrite: (condition: Condition) => Where): WhereInput {
  if (Array.isArray(where)) return (where as readonly Where[]).map((clause) => mapClause(clause, rewrite))
  return mapClause(where as Where, rewrite)
}

function mapClause(clause: Where, rewrite: (condition: Condition) => Where): Where {
  if ('and' in clause) return { and: clause.and.map((inner) => mapClause(inner, rewrite)) }
  if ('or' in clause) return { or: clause.or.map((inner) => mapClause(inner, rewrite)) }
  return rewrite(clause)
}

/** A breakage that rewrites every where clause before the intact adapter sees it. */
function rewritingWhere(rewrite: (condition: Condition) => Where): Breakage {
  const map = (where: WhereInput) => mapWhere(where, rewrite)
  return (inner) => ({
    findOne: <T extends Row = Row>(args: { model: string; where: WhereInput }) => inner.findOne<T>({ ...args, where: map(args.where) }),
    findMany: <T extends Row = Row>(args: FindManyArgs) => inner.findMany<T>({ ...args, where: args.where && map(args.where) }),
    count: (args) => inner.count({ ...args, where: args.where && map(args.where) }),
    update: <T extends Row = Row>(args: { model: string; where: WhereInput; update: Row }) => inner.update<T>({ ...args, where: map(args.where) }),
    updateMany: (args) => inner.updateMany({ ...args, where: map(args.where) }),
    delete: (args) => inner.delete({ ...args, where: map(args.where) }),
    deleteMany: (args) => inner.deleteMany({ ...args, where: map(args.where) }),
    consume: <T extends Row = Row>(args: { model: string; where: WhereInput }) => inner.consume<T>({ ...args, where: map(args.where) }),
    lock: <T extends Row = Row>(args: { model: string; where: WhereInput }) => inner.lock<T>({ ...args, where: map(args.where) }),
  })
}

/** A breakage that changes every row on its way out. */
function mappingRows(change: (row: Row) => Row): Breakage {
  const one = <T extends Row>(row: T | null): T | null => (row === null ? null : (change(row) as T))
  return (inner) => ({
    create: async <T extends Row = Row>(args: { model: string; data: Row }) => change(await inner.create<T>(args)) as T,
    findOne: async <T extends Row = Row>(args: { model: string; where: WhereInput }) => one(await inner.findOne<T>(args)),
    findMany: async <T extends Row = Row>(args: FindManyArgs) => (await inner.findMany<T>(args)).map((row) => change(row) as T),
    update: async <T extends Row = Row>(args: { model: string; where: WhereInput; update: Row }) => one(await inner.update<T>(args)),
    consume: async <T extends Row = Row>(args: { model: string; where: WhereInput }) => one(await inner.consume<T>(args)),
    lock: async <T extends Row = Row>(args: { model: string; where: WhereInput }) => one(await inner.lock<T>(args)),
  })
}

/**
 * A breakage that changes every row read with `join` (the aliases are the
 * join's keys); returning null drops the row, as an INNER JOIN would.
 */
function mappingJoinedRows(change: (row: Row, aliases: readonly string[]) => Row | null): Breakage {
  return (inner) => ({
    findOne: async <T extends Row = Row>(args: FindOneArgs) => {
      const row = await inner.findOne<T>(args)
      return row && args.join ? (change(row, Object.keys(args.join)) as T | null) : row
    },
    findMany: async <T extends Row = Row>(args: FindManyArgs) => {
      const rows = await inner.findMany<T>(args)
      const aliases = Object.keys(args.join ?? {})
      if (aliases.length === 0) return rows
      return rows.flatMap((row) => {
        const changed = change(row, aliases)
        return changed ? [changed as T] : []
      })
    },
  })
}

/** Replaces each alias's joined row (or null) with what `change` makes of it. */
function mapJoined(row: Row, aliases: readonly string[], change: (joined: Row | null, alias: string) => unknown): Row {
  return { ...row, ...Object.fromEntries(aliases.map((alias) => [alias, change((row[alias] as Row | null | undefined) ?? null, alias)])) }
}

function mapValues(row: Row, change: (value: unknown, field: string) => unknown): Row {
  return Object.fromEntries(Object.entries(row).map(([field, value]) => [field, change(value, field)]))
}

/** The schema with some field definitions changed, for backends that "forget" a constraint. */
function alterFields(schema: Schema, change: (field: FieldDefinition) => FieldDefinition): Schema {
  return Object.fromEntries(
    Object.entries(schema).map(([model, definition]) => [
      model,
      { ...definition, fields: Object.fromEntries(Object.entries(definition.fields).map(([name, field]) => [name, change(field)])) },
    ]),
  )
}

/** The schema with every composite unique constraint replaced by what `change` makes of the model. */
function alterCompositeUniques(schema: Schema, change: (definition: ModelDefinition) => ModelDefinition): Schema {
  return Object.fromEntries(Object.entries(schema).map(([model, definition]) => [model, definition.unique ? change(definition) : definition]))
}

/**
 * A breakage that refuses creates the intact adapter accepts: `clash` turns
 * each composite unique constraint and the new row into a where clause, and
 * any stored row matching it counts as a duplicate (a backend comparing
 * tuples more broadly than SQL does).
 */
function compositeClash(clash: (fields: readonly string[], data: Row) => Where | undefined): Breakage {
  return (inner) => ({
    create: async <T extends Row = Row>(args: { model: string; data: Row }) => {
      for (const fields of inner.schema[args.model]?.unique ?? []) {
        const where = clash(fields, args.data)
        if (where && (await inner.count({ model: args.model, where })) > 0) throw new DatabaseError('UNIQUE_VIOLATION', `${args.model} tuple taken`)
      }
      return inner.create<T>(args)
    },
  })
}

/** The composite constraints in these schemas are over string fields; anything else reads as null. */
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null)

interface Variant {
  readonly name: string
  readonly createAdapter: AdapterConformanceOptions['createAdapter']
  /** Cases that must fail on this variant. */
  readonly mustFail: readonly string[]
}

const intact = (schema: Schema): Adapter => memoryAdapter()({ schema }) as Adapter
const wrap = (breakage: Breakage) => (schema: Schema) => broken(intact(schema), breakage)

const variants: readonly Variant[] = [
  {
    name: 'consume as find-then-delete without atomicity',
    createAdapter: wrap((inner) => ({
      consume: async <T extends Row = Row>(args: { model: string; where: WhereInput }) => {
        const row = await inner.findOne<T>(args)
        if (!row) return null
        await inner.delete({ model: args.model, where: { field: 'id', value: String(row.id) } })
        return row
      },
    })),
    mustFail: ['20 concurrent consume calls on one row: exactly one gets it', 'concurrent consumers of several matching rows each get a different row'],
  },
  {
    name: 'transaction without rollback',
    createAdapter: wrap((_inner, self) => ({ transaction: (fn) => fn(self) })),
    mustFail: [
      'transaction rolls back every write when fn throws, and rethrows the error',
      'a failed write inside a transaction rolls back the whole transaction',
      'a nested transaction rolls back with the outer one',
      'uncommitted writes are not visible outside the transaction',
      'consume inside a transaction is undone by its rollback',
    ],
  },
  {
    name: 'transaction that swallows the error',
    createAdapter: wrap((inner) => ({
      transaction: <R>(fn: (tx: Adapter) => Promise<R>) => inner.transaction(fn).catch(() => undefined as R),
    })),
    mustFail: ['transaction rolls back every write when fn throws, and rethrows the error', 'a failed write inside a transaction rolls back the whole transaction'],
  },
  {
    name: 'case-insensitive eq and in (a _ci collation)',
    createAdapter: wrap(
      rewritingWhere((condition) =>
        (condition.operator ?? 'eq') === 'eq' || condition.operator === 'in' ? { ...condition, insensitive: true } : condition,
      ),
    ),
    mustFail: ['string operators are case-sensitive by default', 'case-insensitive email lookup on the user model'],
  },
  {
    name: 'case-insensitive LIKE (SQLite default)',
    createAdapter: wrap(
      rewritingWhere((condition) =>
        ['contains', 'starts_with', 'ends_with'].includes(condition.operator ?? 'eq') ? { ...condition, insensitive: true } : condition,
      ),
    ),
    mustFail: ['string operators are case-sensitive by default'],
  },
  {
    name: 'insensitive flag ignored',
    createAdapter: wrap(rewritingWhere(({ insensitive: _ignored, ...condition }) => condition)),
    mustFail: ['insensitive: true compares strings case-insensitively', 'case-insensitive email lookup on the user model'],
  },
  {
    name: 'LIKE metacharacters not escaped',
    // An unescaped `%` or `_` matches any run of characters or any one: at least as broad as dropping it.
    createAdapter: wrap(
      rewritingWhere((condition) =>
        ['contains', 'starts_with', 'ends_with'].includes(condition.operator ?? 'eq') && typeof condition.value === 'string'
          ? { ...condition, value: condition.value.replace(/[%_\\]/g, '') }
          : condition,
      ),
    ),
    mustFail: ['LIKE metacharacters % _ and \\ in values match literally'],
  },
  {
    name: 'in [] matches everything',
    createAdapter: wrap(rewritingWhere((condition) => (condition.operator === 'in' && Array.isArray(condition.value) && condition.value.length === 0 ? { and: [] } : condition))),
    mustFail: ['in with an empty list matches nothing, in every operation'],
  },
  {
    name: 'empty or matches everything',
    createAdapter: (schema) => {
      const fix = (where: WhereInput): WhereInput => mapEmptyOr(where)
      return broken(intact(schema), (inner) => ({
        findMany: <T extends Row = Row>(args: FindManyArgs) => inner.findMany<T>({ ...args, where: args.where && fix(args.where) }),
        count: (args) => inner.count({ ...args, where: args.where && fix(args.where) }),
        deleteMany: (args) => inner.deleteMany({ ...args, where: fix(args.where) }),
      }))
    },
    mustFail: ['an empty AND matches everything and an empty OR matches nothing'],
  },
  {
    name: 'ne written as SQL <> (drops nulls)',
    createAdapter: wrap(
      rewritingWhere((condition) =>
        condition.operator === 'ne' && condition.value !== null ? { and: [condition, { field: condition.field, operator: 'ne', value: null }] } : condition,
      ),
    ),
    mustFail: ['ne with a value also matches rows where the field is null'],
  },
  {
    name: 'offset ignored',
    createAdapter: wrap((inner) => ({ findMany: <T extends Row = Row>({ offset: _offset, ...args }: FindManyArgs) => inner.findMany<T>(args) })),
    mustFail: ['offset without a limit skips rows', 'limit and offset paginate every row exactly once'],
  },
  {
    name: 'limit 0 treated as no limit',
    createAdapter: wrap((inner) => ({ findMany: <T extends Row = Row>(args: FindManyArgs) => inner.findMany<T>({ ...args, limit: args.limit || undefined }) })),
    mustFail: ['limit 0 returns no rows'],
  },
  {
    name: 'only the first sort key applied',
    createAdapter: wrap((inner) => ({
      findMany: <T extends Row = Row>(args: FindManyArgs) =>
        inner.findMany<T>({ ...args, sortBy: Array.isArray(args.sortBy) ? (args.sortBy as readonly SortBy[])[0] : args.sortBy }),
    })),
    mustFail: ['sortBy sorts ascending and descending on several keys'],
  },
  {
    name: 'updateMany counts changed rows only (MySQL affectedRows)',
    createAdapter: wrap((inner) => ({
      updateMany: async (args) => {
        const rows = await inner.findMany(args)
        const changed = rows.filter((row) => Object.entries(args.update).some(([field, value]) => row[field] !== value))
        await inner.updateMany(args)
        return changed.length
      },
    })),
    mustFail: ['updateMany returns the number of matched rows, changed or not'],
  },
  {
    name: 'update changes the last match instead of the first by id',
    createAdapter: wrap((inner) => ({
      update: async <T extends Row = Row>(args: { model: string; where: WhereInput; update: Row }) => {
        const rows = await inner.findMany({ model: args.model, where: args.where, sortBy: { field: 'id', direction: 'desc' }, limit: 1 })
        const last = rows[0]
        return last ? inner.update<T>({ ...args, where: { field: 'id', value: String(last.id) } }) : null
      },
    })),
    mustFail: ['update with several matches changes only the first by id'],
  },
  {
    name: 'dates truncated to seconds (DATETIME without fractional seconds)',
    createAdapter: wrap(mappingRows((row) => mapValues(row, (value) => (value instanceof Date ? new Date(Math.floor(value.getTime() / 1000) * 1000) : value)))),
    mustFail: ['create returns the stored row with every field type intact', 'findOne round-trips every field type exactly'],
  },
  {
    name: 'booleans read back as 0/1',
    createAdapter: wrap(mappingRows((row) => mapValues(row, (value) => (typeof value === 'boolean' ? Number(value) : value)))),
    mustFail: ['findOne round-trips every field type exactly', 'case-insensitive email lookup on the user model'],
  },
  {
    name: 'BIGINT read back as a string',
    createAdapter: wrap(mappingRows((row) => mapValues(row, (value, field) => (field === 'big' && typeof value === 'number' ? String(value) : value)))),
    mustFail: ['findOne round-trips every field type exactly', 'update changes only the given fields and returns the updated row'],
  },
  {
    name: 'rows keyed by column name',
    createAdapter: wrap(mappingRows(({ happenedAt, ...row }) => (happenedAt === undefined ? row : { ...row, happened_at: happenedAt }))),
    mustFail: ['create returns the stored row with every field type intact', 'findOne round-trips every field type exactly'],
  },
  {
    name: 'driver errors not translated to DatabaseError',
    createAdapter: wrap((inner) => ({
      create: <T extends Row = Row>(args: { model: string; data: Row }) =>
        inner.create<T>(args).catch((error: unknown) => {
          throw new Error(`SQLITE_CONSTRAINT: ${error instanceof Error ? error.message : String(error)}`)
        }),
    })),
    mustFail: ['a unique violation throws UNIQUE_VIOLATION and keeps the original row', '20 concurrent creates with one unique value: exactly one succeeds'],
  },
  {
    name: 'unique constraints missing',
    createAdapter: (schema) => intact(alterFields(schema, ({ unique: _unique, ...field }) => field)),
    mustFail: ['a unique violation throws UNIQUE_VIOLATION and keeps the original row', '20 concurrent creates with one unique value: exactly one succeeds'],
  },
  {
    name: 'composite unique constraints ignored',
    createAdapter: (schema) => intact(alterCompositeUniques(schema, ({ unique: _unique, ...definition }) => definition)),
    mustFail: [
      'a composite unique violation throws UNIQUE_VIOLATION and keeps the first row',
      'updating into a taken composite unique tuple throws UNIQUE_VIOLATION and changes nothing',
      'a null in a composite unique tuple never collides',
      '20 concurrent creates of one composite unique tuple: exactly one succeeds',
    ],
  },
  {
    name: 'composite unique index on its first column only',
    createAdapter: (schema) =>
      intact(
        alterCompositeUniques(schema, ({ unique = [], fields, ...definition }) => ({
          ...definition,
          fields: Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, unique.some(([first]) => first === name) ? { ...field, unique: true } : field])),
        })),
      ),
    mustFail: ['composite unique tuples sharing some values, or differing in case, do not collide', 'a null in a composite unique tuple never collides'],
  },
  {
    name: 'a null in a composite unique tuple collides (NULLS NOT DISTINCT)',
    createAdapter: wrap(
      compositeClash((fields, data) =>
        fields.some((field) => data[field] === null) ? { and: fields.map((field) => ({ field, value: stringOrNull(data[field]) })) } : undefined,
      ),
    ),
    mustFail: ['a null in a composite unique tuple never collides'],
  },
  {
    name: 'composite unique tuples compared case-insensitively (a _ci collation)',
    createAdapter: wrap(
      compositeClash((fields, data) =>
        fields.every((field) => typeof data[field] === 'string')
          ? { and: fields.map((field) => ({ field, value: stringOrNull(data[field]), insensitive: true })) }
          : undefined,
      ),
    ),
    mustFail: ['composite unique tuples sharing some values, or differing in case, do not collide'],
  },
  {
    name: 'foreign keys not enforced',
    createAdapter: (schema) => intact(alterFields(schema, ({ references: _references, ...field }) => field)),
    mustFail: ['deleting a user cascades to its sessions and owned rows', 'onDelete set null clears the reference and keeps the row', 'a dangling reference throws FOREIGN_KEY_VIOLATION'],
  },
  {
    name: 'returned rows share objects with the store',
    createAdapter: (schema) => {
      const shared = new Map<string, Row>()
      return broken(intact(schema), (inner) => ({
        create: async <T extends Row = Row>(args: { model: string; data: Row }) => {
          const row = await inner.create<T>(args)
          shared.set(`${args.model}:${String(row.id)}`, args.data)
          return row
        },
        findOne: async <T extends Row = Row>(args: { model: string; where: WhereInput }) => {
          const row = await inner.findOne<T>(args)
          return row && ((shared.get(`${args.model}:${String(row.id)}`) as T | undefined) ?? row)
        },
      }))
    },
    mustFail: ['returned rows are copies: mutating them or the input changes nothing stored'],
  },
  {
    name: 'joined rows skip value conversion (booleans as 0/1, dates as text)',
    createAdapter: wrap(
      mappingJoinedRows((row, aliases) =>
        mapJoined(row, aliases, (joined) =>
          joined && mapValues(joined, (value) => (typeof value === 'boolean' ? Number(value) : value instanceof Date ? value.toISOString() : value)),
        ),
      ),
    ),
    mustFail: ['findOne with join returns the joined row with every field type converted', 'two joins in one call, the same model joined twice'],
  },
  {
    name: 'a missing joined row as an empty object instead of null',
    createAdapter: wrap(mappingJoinedRows((row, aliases) => mapJoined(row, aliases, (joined) => joined ?? {}))),
    mustFail: [
      'a join with no matching row gives null and keeps the base row (LEFT JOIN)',
      'findMany with join applies where, sortBy, limit and offset to the base model',
      'two joins in one call, the same model joined twice',
    ],
  },
  {
    name: 'INNER JOIN instead of LEFT JOIN (rows without a match dropped)',
    createAdapter: wrap(mappingJoinedRows((row, aliases) => (aliases.some((alias) => row[alias] === null) ? null : row))),
    mustFail: [
      'a join with no matching row gives null and keeps the base row (LEFT JOIN)',
      'findMany with join applies where, sortBy, limit and offset to the base model',
      'two joins in one call, the same model joined twice',
    ],
  },
  {
    name: 'an alias colliding with a field is silently dropped',
    createAdapter: wrap((inner) => {
      const keep = (model: string, join: Joins | undefined): Joins | undefined => {
        const fields = inner.schema[model]?.fields ?? {}
        return join && Object.fromEntries(Object.entries(join).filter(([alias]) => alias !== 'id' && !(alias in fields)))
      }
      return {
        findOne: <T extends Row = Row>(args: FindOneArgs) => inner.findOne<T>({ ...args, join: keep(args.model, args.join) }),
        findMany: <T extends Row = Row>(args: FindManyArgs) => inner.findMany<T>({ ...args, join: keep(args.model, args.join) }),
      }
    }),
    mustFail: ['a join alias colliding with a field, or an unknown model or field, rejects'],
  },
  {
    name: 'joined rows shared between reads',
    createAdapter: (schema) => {
      const shared = new Map<string, Row>()
      const reuse = (joined: Row | null, alias: string): Row | null => {
        if (!joined) return null
        const key = `${alias}:${String(joined.id)}`
        const known = shared.get(key) ?? joined
        shared.set(key, known)
        return known
      }
      return broken(intact(schema), mappingJoinedRows((row, aliases) => mapJoined(row, aliases, reuse)))
    },
    mustFail: ['joined rows are copies: mutating them changes nothing stored'],
  },
]

/** Replaces every `{ or: [] }` with `{ and: [] }`: the classic "empty OR compiles to nothing" bug. */
function mapEmptyOr(where: WhereInput): WhereInput {
  const visit = (clause: Where): Where => {
    if ('and' in clause) return { and: clause.and.map(visit) }
    if ('or' in clause) return clause.or.length === 0 ? { and: [] } : { or: clause.or.map(visit) }
    return clause
  }
  return Array.isArray(where) ? (where as readonly Where[]).map(visit) : visit(where as Where)
}

/** Runs every case; returns the names that failed, with what they failed with. */
async function failures(createAdapter: AdapterConformanceOptions['createAdapter']): Promise<Map<string, unknown>> {
  const suite = createConformanceSuite({ name: 'under test', createAdapter })
  const failed = new Map<string, unknown>()
  for (const testCase of suite.cases) {
    try {
      await testCase.run()
    } catch (error) {
      failed.set(testCase.name, error)
    }
  }
  await suite.close()
  return failed
}

describe('the conformance suite catches broken adapters', () => {
  it('passes every case on the intact memory adapter', async () => {
    expect([...(await failures(intact)).keys()]).toEqual([])
  })

  for (const variant of variants) {
    it(`fails on: ${variant.name}`, async () => {
      for (const name of variant.mustFail) expect(conformanceCaseNames).toContain(name)
      const failed = await failures(variant.createAdapter)
      for (const name of variant.mustFail) {
        expect(failed.has(name), `"${name}" should fail`).toBe(true)
        expect(failed.get(name)).toBeInstanceOf(ConformanceAssertionError)
      }
    })
  }

  it('runs a single case directly and rejects with a readable message', async () => {
    const suite = createConformanceSuite({ name: 'no offset', createAdapter: variants.find((variant) => variant.name === 'offset ignored')?.createAdapter ?? intact })
    const offsetCase = suite.cases.find((testCase) => testCase.name === 'offset without a limit skips rows')
    await expect(offsetCase?.run()).rejects.toThrow(/id asc, offset 4\n {2}expected: \["s5", "s6"\]\n {2}received: \["s1", /)
  })

  it('fails a case when reset leaves rows behind', async () => {
    const suite = createConformanceSuite({ name: 'lazy reset', createAdapter: intact, reset: async () => {} })
    const [first, second] = suite.cases
    await first?.run()
    await expect(second?.run()).rejects.toThrow(/reset left 1 row\(s\) in model "user"/)
  })

  it('reports cases that need a missing capability as skipped, not passed', async () => {
    const suite = createConformanceSuite({ name: 'no transactions', createAdapter: (schema) => ({ ...intact(schema), capabilities: { transactions: false, migrations: false } }) })
    const rollback = suite.cases.find((testCase) => testCase.name === 'transaction rolls back every write when fn throws, and rethrows the error')
    expect(rollback?.requires).toEqual(['transactions'])
    expect(await rollback?.run()).toEqual({ status: 'skipped', reason: 'the adapter does not declare capabilities.transactions' })
  })

  it('migrates once before the first case when the adapter declares migrations', async () => {
    const calls: string[] = []
    const suite = createConformanceSuite({
      name: 'migrating',
      createAdapter: (schema) => ({
        ...intact(schema),
        capabilities: { transactions: true, migrations: true },
        migrate: async (options) => {
          calls.push(options?.dryRun ? 'dry run' : 'migrate')
          return { statements: [], applied: !options?.dryRun }
        },
      }),
    })
    for (const testCase of suite.cases.slice(0, 3)) await testCase.run()
    expect(calls).toEqual(['migrate'])
    const migrating = suite.cases.find((testCase) => testCase.name === 'migrating again keeps existing rows')
    expect(await migrating?.run()).toEqual({ status: 'passed' })
    expect(calls).toEqual(['migrate', 'dry run', 'migrate'])
  })

  it('refuses skips that name no case or give no reason', () => {
    const createAdapter = intact
    expect(() => runAdapterConformance({ name: 'typo', createAdapter, skip: [{ reason: 'no FKs', tests: ['a dangling reference throws FK_VIOLATION'] }] })).toThrow(
      /no conformance case is named "a dangling reference throws FK_VIOLATION"/,
    )
    expect(() => runAdapterConformance({ name: 'no reason', createAdapter, skip: [{ reason: ' ', tests: [conformanceCaseNames[0] ?? ''] }] })).toThrow(/needs a reason/)
  })

  it('fails the names case when the database holds the model and field names instead of the mapped ones', async () => {
    /** The catalog an adapter would leave that ignored `naming`: every table and column under its model or field name. */
    const unmapped = async () => new Map(Object.entries(conformanceSchema).map(([model, definition]) => [model, new Set(['id', ...Object.keys(definition.fields)])]))
    const names = 'the database names every table and column as the schema does'
    const suite = createConformanceSuite({ name: 'names ignored', schema: namedConformanceSchema, createAdapter: intact, listColumns: unmapped })
    await expect(suite.cases.find((testCase) => testCase.name === names)?.run()).rejects.toThrow('model "user" has no table "users" in the database')
    const mapped = async () =>
      new Map([...(await unmapped()).entries()].map(([table, columns]) => [table === 'user' ? 'users' : table, new Set([...columns].map((c) => (c === 'id' ? 'user_id' : c)))]))
    const renamedTableOnly = createConformanceSuite({ name: 'id not renamed', schema: namedConformanceSchema, createAdapter: intact, listColumns: mapped })
    await expect(renamedTableOnly.cases.find((testCase) => testCase.name === names)?.run()).rejects.toThrow('field "user.emailVerified" has no column "email_verified" in table "users"')
    expect(await createConformanceSuite({ name: 'no catalog', createAdapter: intact }).cases.find((testCase) => testCase.name === names)?.run()).toEqual({
      status: 'skipped',
      reason: 'no listColumns was given to read the database catalog',
    })
  })

  it('checks thrown errors by type and code, not by message', async () => {
    const suite = createConformanceSuite({
      name: 'wrong code',
      createAdapter: wrap((inner) => ({
        create: <T extends Row = Row>(args: { model: string; data: Row }) =>
          inner.create<T>(args).catch((error: unknown) => {
            throw error instanceof DatabaseError ? new DatabaseError('UNKNOWN', error.message) : error
          }),
      })),
    })
    const unique = suite.cases.find((testCase) => testCase.name === 'a unique violation throws UNIQUE_VIOLATION and keeps the original row')
    await expect(unique?.run()).rejects.toThrow(/expected DatabaseError UNIQUE_VIOLATION, received DatabaseError UNKNOWN/)
  })
})
