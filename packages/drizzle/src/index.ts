/**
 * @module
 * `@gatehouse/drizzle`: Gatehouse's database adapter on Drizzle ORM, over
 * the application's own `db` and the tables `gatehouse generate --format
 * drizzle` writes (docs/adapters.md#using-drizzle).
 */
export { createDrizzleAdapter, drizzleAdapter } from './drizzle-adapter.js'
export type { DrizzleAdapterOptions } from './drizzle-adapter.js'
export type { Driver, DrizzleDatabase, Provider } from './provider.js'
