/**
 * @module
 * What the adapter needs of the application's Prisma Client, typed by shape
 * rather than by the generated types: the client is generated into the
 * application (Prisma 7's `prisma-client` generator), so this package cannot
 * import its types, and a build or type check here never needs one to exist.
 */

import type { SqlDialect } from '@gatehouse/core'

/** The database a Prisma schema's datasource names (`provider = "postgresql"`). */
export type PrismaProvider = 'postgresql' | 'mysql' | 'sqlite'

/** Core's name for each provider's SQL: the `--dialect` of `gatehouse generate`, the dialect of core's error mapping. */
export const DIALECTS: Readonly<Record<PrismaProvider, SqlDialect>> = { postgresql: 'postgres', mysql: 'mysql', sqlite: 'sqlite' }

/**
 * Any generated `PrismaClient`: the adapter reaches the model delegates
 * (`prisma.user`, `prisma.session`, …) by the names the generated schema
 * gives them, and checks they are there when it is created. The parameter
 * types are left open (`never[]`) because each generated client's methods
 * are generic over its own models; any such client fits.
 *
 * @example
 * import { PrismaClient } from './generated/prisma/client.js'
 * const client: PrismaClientLike = new PrismaClient({ adapter })
 */
export interface PrismaClientLike {
  readonly $transaction: (...args: never[]) => PromiseLike<unknown>
  readonly $queryRawUnsafe: (...args: never[]) => PromiseLike<unknown>
}

/** Options of an interactive transaction, as Prisma Client takes them. */
export interface TransactionOptions {
  readonly isolationLevel?: 'ReadCommitted' | 'Serializable'
  /** How long to wait for a connection to start the transaction, in ms (Prisma's default: 2000). */
  readonly maxWait?: number
  /** How long the transaction may stay open, in ms (Prisma's default: 5000). */
  readonly timeout?: number
}

/** The calls the adapter makes on one model's delegate, with the arguments it builds. */
export interface Delegate {
  create(args: { data: object; select: object }): Promise<unknown>
  findFirst(args: { where?: object; select: object; orderBy?: object }): Promise<unknown>
  findMany(args: { where?: object; select: object; orderBy?: object; take?: number; skip?: number }): Promise<unknown>
  count(args: { where?: object }): Promise<number>
  update(args: { where: object; data: object; select: object }): Promise<unknown>
  updateMany(args: { where?: object; data: object }): Promise<{ count: number }>
  deleteMany(args: { where?: object }): Promise<{ count: number }>
}

/** The client, or the transaction client `$transaction` hands its callback (which has no `$transaction`). */
export interface Client {
  $transaction?<R>(fn: (tx: Client) => Promise<R>, options?: TransactionOptions): Promise<R>
  $queryRawUnsafe(query: string, ...values: unknown[]): Promise<unknown>
}

/**
 * The client as the adapter calls it. The generated client has these
 * methods (the `PrismaClientLike` check says so for the two the adapter
 * calls directly, `delegateOf` checks each model's delegate at run time);
 * its own signatures are generic over its models, which this package cannot name.
 */
export function asClient(client: PrismaClientLike): Client {
  return client as unknown as Client
}

/** The delegate of a model (`prisma.user`), or undefined when the generated client has no such model. */
export function delegateOf(client: Client, name: string): Delegate | undefined {
  const delegate: unknown = Reflect.get(client, name)
  if (typeof delegate !== 'object' || delegate === null) return undefined
  return typeof Reflect.get(delegate, 'findMany') === 'function' ? (delegate as Delegate) : undefined
}
