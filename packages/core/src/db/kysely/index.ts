/**
 * @module
 * `@gatehouse/core/adapters/kysely`: the adapter over a Kysely instance you
 * configure yourself. For a ready-made connection use the `adapters/sqlite`,
 * `adapters/postgres` or `adapters/mysql` entry points instead.
 */
export { createKyselyAdapter, kyselyAdapter } from './kysely-adapter.js'
export type { KyselyAdapterOptions, SqlDialect } from './kysely-adapter.js'
export { migrateSchema, planMigration } from './migrate.js'
