/**
 * What the Prisma adapter throws (docs/adapters.md#transient-faults): Prisma's
 * error codes and the driver's codes it passes along become core's
 * `DatabaseError`, so a route answers a lost database 503 with Retry-After;
 * and a client that does not match the schema, or a wrong provider, fails
 * when the adapter is made, with a message that says what to run.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAuth, DatabaseError } from '@gatehouse/core'
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaPg } from '@prisma/adapter-pg'
import { afterAll, describe, expect, it } from 'vitest'
import { databaseError } from '../src/errors.js'
import { createPrismaAdapter, prismaAdapter, type PrismaProvider } from '../src/index.js'
import { loadClient } from './databases.js'
import { TEST_SCHEMAS } from './paths.js'

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-prisma-errors-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A Prisma Client known-request error as Prisma builds it: `code`, and the driver's error under `meta`. */
function known(code: string, originalCode?: string): Error {
  const meta = originalCode === undefined ? {} : { driverAdapterError: { cause: { originalCode } } }
  return Object.assign(new Error(`Prisma ${code}`), { name: 'PrismaClientKnownRequestError', code, meta })
}

function codeOf(error: unknown): string | undefined {
  return error instanceof DatabaseError ? error.code : undefined
}

describe('databaseError', () => {
  it.each([
    ['P2002', 'UNIQUE_VIOLATION'],
    ['P2003', 'FOREIGN_KEY_VIOLATION'],
    ['P2011', 'NOT_NULL_VIOLATION'],
    ['P2034', 'DEADLOCK'],
    ['P1001', 'TRANSIENT'],
    ['P1017', 'TRANSIENT'],
    ['P2024', 'TRANSIENT'],
    ['P2028', 'TRANSIENT'],
  ])('maps Prisma %s to %s, keeping the error as cause', (code, expected) => {
    const error = known(code)
    const mapped = databaseError(error, 'postgresql', 'user')
    expect(codeOf(mapped)).toBe(expected)
    expect((mapped as DatabaseError).cause).toBe(error)
  })

  it.each<[PrismaProvider, string, string]>([
    ['postgresql', '40P01', 'DEADLOCK'],
    ['postgresql', '55P03', 'TRANSIENT'],
    ['mysql', '1213', 'DEADLOCK'],
    ['mysql', '1205', 'TRANSIENT'],
    ['sqlite', 'SQLITE_BUSY', 'TRANSIENT'],
  ])('reads the driver code a raw query failed with (%s %s → %s)', (provider, original, expected) => {
    expect(codeOf(databaseError(known('P2010', original), provider))).toBe(expected)
  })

  it('maps a socket error under the error, and leaves any other error as it is', () => {
    expect(codeOf(databaseError(new Error('failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) }), 'postgresql'))).toBe('TRANSIENT')
    const other = known('P2009')
    expect(databaseError(other, 'postgresql')).toBe(other)
    const plain = new Error('not a database error')
    expect(databaseError(plain, 'sqlite')).toBe(plain)
  })
})

describe('a database that cannot be reached', () => {
  it('answers 503 with Retry-After through the auth handler', async () => {
    // Nothing listens on port 1: the connection is refused at once.
    const prisma = await loadClient('postgres', 'default', new PrismaPg({ connectionString: 'postgres://nobody@127.0.0.1:1/none', connectionTimeoutMillis: 2000 }))
    const auth = createAuth({
      baseURL: 'http://localhost:3000',
      secret: 'test-secret-0123456789-abcdefghijklmnop',
      emailAndPassword: { enabled: true },
      logger: { disabled: true },
      database: prismaAdapter(prisma, { provider: 'postgresql' }),
    })
    try {
      const reply = await auth.handler(
        new Request('http://localhost:3000/api/auth/sign-in/email', {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
          body: JSON.stringify({ email: 'ada@example.com', password: 'correct horse battery staple' }),
        }),
      )
      expect(reply.status).toBe(503)
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0)
    } finally {
      await prisma.$disconnect()
    }
  })
})

describe('creating the adapter', () => {
  it('refuses a client generated without one of the schema\'s models, naming it and what to run', async () => {
    // The client generated for the renamed conformance schema has no organization models.
    const prisma = await loadClient('sqlite', 'named', new PrismaBetterSqlite3({ url: `file:${join(dir, 'named.db')}` }))
    expect(() => createPrismaAdapter(prisma, { provider: 'sqlite' }, TEST_SCHEMAS.default)).toThrow(
      /has no model Organization \(prisma\.organization\) for Gatehouse's "organization".*gatehouse generate --format prisma/,
    )
    await prisma.$disconnect()
  })

  it('names its dialect before touching the client, for gatehouse generate --format prisma', async () => {
    const prisma = await loadClient('sqlite', 'default', new PrismaBetterSqlite3({ url: `file:${join(dir, 'dialect.db')}` }))
    expect(prismaAdapter(prisma, { provider: 'postgresql' }).dialect).toBe('postgres')
    expect(prismaAdapter(prisma, { provider: 'mysql' }).dialect).toBe('mysql')
    expect(prismaAdapter(prisma, { provider: 'sqlite' }).dialect).toBe('sqlite')
    await prisma.$disconnect()
  })

  it('refuses an unknown provider and an object that is not a Prisma Client', async () => {
    const prisma = await loadClient('sqlite', 'default', new PrismaBetterSqlite3({ url: `file:${join(dir, 'default.db')}` }))
    expect(() => createPrismaAdapter(prisma, { provider: 'postgres' as PrismaProvider }, TEST_SCHEMAS.default)).toThrow(
      "prismaAdapter: provider must be 'postgresql', 'mysql' or 'sqlite', not \"postgres\"",
    )
    expect(() => createPrismaAdapter({ $transaction: async () => undefined, $queryRawUnsafe: async () => [] }, { provider: 'sqlite' }, TEST_SCHEMAS.default)).toThrow(
      /has no model User/,
    )
    await prisma.$disconnect()
  })
})
