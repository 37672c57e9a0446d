/**
 * @module
 * The schema the conformance suite creates its adapter with, and builders
 * for the rows the cases insert. `conformanceItem` carries one field of every
 * kind an adapter has to convert or constrain: unique and indexed strings,
 * plain and 64-bit numbers, booleans, dates, JSON, nullable columns, a
 * nullable unique column, foreign keys with `cascade` and `set null`, a
 * composite unique constraint over two otherwise plain nullable strings
 * (`shelf`, `slot`: on MySQL they must become indexable VARCHARs), and a
 * table and column name that differ from the model and field names.
 */
import type { Row } from '../../db/adapter.js'
import { applyNaming } from '../../db/naming.js'
import { coreSchema, mergeSchemas, type Schema } from '../../db/schema.js'

export const ITEM = 'conformanceItem'

/**
 * Core's models plus `conformanceItem`. Adapters that need tables created by
 * hand (no `migrations` capability) create them from this schema.
 *
 * @example
 * runAdapterConformance({ name: 'sqlite', createAdapter: (schema) => sqliteAdapter({ database })({ schema }) })
 * // the suite calls createAdapter(conformanceSchema)
 */
export const conformanceSchema: Schema = mergeSchemas(coreSchema, {
  [ITEM]: {
    tableName: 'gatehouse_conformance_items',
    fields: {
      slug: { type: 'string', unique: true },
      title: { type: 'string', index: true },
      rank: { type: 'number' },
      big: { type: 'number', bigint: true },
      active: { type: 'boolean' },
      happenedAt: { type: 'date', columnName: 'happened_at' },
      payload: { type: 'json', required: false },
      note: { type: 'string', required: false },
      code: { type: 'string', required: false, unique: true },
      ownerId: { type: 'string', required: false, index: true, references: { model: 'user', field: 'id', onDelete: 'cascade' } },
      reviewerId: { type: 'string', required: false, references: { model: 'user', field: 'id', onDelete: 'set null' } },
      dueAt: { type: 'date', required: false },
      shelf: { type: 'string', required: false },
      slot: { type: 'string', required: false, columnName: 'slot_label' },
    },
    unique: [['shelf', 'slot']],
  },
})

/**
 * `conformanceSchema` under other names (docs/adapters.md#naming-tables-and-columns):
 * plural snake_case tables (`users`, `rate_limits`), snake_case columns
 * (`email_verified`), `user.id` stored in `user_id` (which every foreign key
 * to the user then names) and the item's id in `item_id`. The item keeps the
 * table and columns its definition names. The cases run unchanged on it: they
 * only ever speak of models and fields.
 *
 * @example
 * runAdapterConformance({ name: 'sqlite (named)', schema: namedConformanceSchema, createAdapter: (schema) => sqliteAdapter(file)({ schema }) })
 */
export const namedConformanceSchema: Schema = applyNaming(conformanceSchema, {
  plural: true,
  casing: 'snake_case',
  models: { user: { columns: { id: 'user_id' } }, [ITEM]: { columns: { id: 'item_id' } } },
})

export const BASE_DATE = new Date('2026-01-02T03:04:05.678Z')

/** A date `days` after `BASE_DATE`, plus `ms` milliseconds. */
export function day(days: number, ms = 0): Date {
  return new Date(BASE_DATE.getTime() + days * 86_400_000 + ms)
}

/** An item with every field given (the adapter contract: `create` receives every field). */
export function itemRow(id: string, overrides: Row = {}): Row {
  return {
    id,
    slug: `slug-${id}`,
    title: `title-${id}`,
    rank: 0,
    big: 0,
    active: false,
    happenedAt: BASE_DATE,
    payload: null,
    note: null,
    code: null,
    ownerId: null,
    reviewerId: null,
    dueAt: null,
    shelf: null,
    slot: null,
    ...overrides,
  }
}

/** An item with a non-default value in every field; `ownerId`/`reviewerId` point at `userId`. */
export function fullItemRow(id: string, userId: string): Row {
  return itemRow(id, {
    slug: `full-${id}`,
    title: 'Every Field',
    rank: -42,
    // Above 2^32 and far above 2^31: a 32-bit column or a driver returning strings fails.
    big: 2 ** 40 + 7,
    active: true,
    happenedAt: new Date('2026-03-04T05:06:07.089Z'),
    payload: { nested: { list: [1, 'two', true, null], text: 'quote " backslash \\ emoji 🔐' }, count: 3, flag: false },
    note: 'a note',
    code: `CODE-${id}`,
    ownerId: userId,
    reviewerId: userId,
    dueAt: new Date('2030-12-31T23:59:59.999Z'),
    shelf: 'Shelf A',
    slot: `slot-${id}`,
  })
}

export function userRow(id: string, overrides: Row = {}): Row {
  return {
    id,
    name: `User ${id}`,
    email: `${id}@example.com`,
    emailVerified: false,
    image: null,
    createdAt: BASE_DATE,
    updatedAt: BASE_DATE,
    credentialVersion: null,
    ...overrides,
  }
}

export function sessionRow(id: string, userId: string, overrides: Row = {}): Row {
  return {
    id,
    userId,
    token: `token-${id}`,
    expiresAt: day(7),
    createdAt: BASE_DATE,
    updatedAt: BASE_DATE,
    ipAddress: null,
    userAgent: null,
    amr: null,
    ...overrides,
  }
}

export function verificationRow(id: string, identifier: string, overrides: Row = {}): Row {
  return {
    id,
    identifier,
    value: `value-${id}`,
    expiresAt: day(1),
    createdAt: BASE_DATE,
    updatedAt: BASE_DATE,
    ...overrides,
  }
}

/** Resolves after `ms`; lets a concurrent query start while a transaction is open. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
