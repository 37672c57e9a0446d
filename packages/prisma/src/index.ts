/**
 * @module
 * `@gatehouse/prisma`: Gatehouse's database adapter on Prisma Client, over
 * the application's own client generated from the schema
 * `gatehouse generate --format prisma` writes (docs/adapters.md#using-prisma).
 */
export { createPrismaAdapter, prismaAdapter } from './prisma-adapter.js'
export type { PrismaAdapterOptions } from './prisma-adapter.js'
export type { PrismaClientLike, PrismaProvider, TransactionOptions } from './client.js'
