/**
 * @module
 * The in-memory adapter: every model's rows in process memory, with the
 * behaviour of a careful SQL database (unique, not-null and foreign key
 * constraints, atomic `consume`, transactions with real rollback), so tests
 * and local development exercise the same paths production does. Rows are
 * lost when the process exits.
 *
 * Concurrency: writes and transactions queue on one lock, so transactions
 * are serialisable and never interleave; reads never wait and see committed
 * rows only. Inside `transaction(fn)` use the `tx` adapter: a write through
 * the outer adapter waits for the transaction to end, so awaiting one inside
 * `fn` never finishes (as with a single-connection SQLite database).
 */
import type { Adapter, AdapterFactory, Joins, Row, SortBy, WhereInput } from '../adapter.js'
import { resolveJoins } from '../join.js'
import { validateCompositeUniques, type Schema } from '../schema.js'
import { attachJoins } from './joins.js'
import { Mutex } from './mutex.js'
import * as operations from './operations.js'
import { Tables } from './tables.js'

export interface MemoryAdapterOptions {
  /** Rows inserted, constraints checked, when the adapter is created: models in key order, parents first. */
  readonly initialData?: Readonly<Record<string, readonly Row[]>>
}

/** Where an adapter's operations read and write: the committed tables, or one open transaction. */
interface Scope {
  read<T>(fn: (tables: Tables) => T): Promise<T>
  write<T>(fn: (tables: Tables) => T): Promise<T>
  transaction<R>(fn: (tx: Adapter) => Promise<R>, self: Adapter): Promise<R>
}

/**
 * An adapter factory for `createAuth({ database })`; each call with a schema
 * makes a new, empty database.
 *
 * @example
 * const auth = createAuth({ baseURL: 'http://localhost:3000', secret, database: memoryAdapter() })
 *
 * @example
 * const adapter = await memoryAdapter({ initialData: { user: [ada] } })({ schema: coreSchema })
 */
export function memoryAdapter(options: MemoryAdapterOptions = {}): AdapterFactory {
  return ({ schema }) => {
    // A hand-written schema has not been through mergeSchemas: a misspelt field would constrain nothing.
    validateCompositeUniques(schema)
    const committed = new Tables()
    for (const [model, rows] of Object.entries(options.initialData ?? {})) {
      for (const row of rows) applyWrite(committed, (tables) => operations.createRow(schema, tables, model, row))
    }
    const lock = new Mutex()
    const scope: Scope = {
      read: async (fn) => fn(committed),
      write: (fn) => lock.run(() => applyWrite(committed, fn)),
      transaction: (fn) => lock.run(() => runTransaction(schema, committed, fn)),
    }
    return bindAdapter(schema, scope)
  }
}

/** Runs one write on a fork of `tables` and keeps it only if it succeeds: each write is all-or-nothing. */
function applyWrite<T>(tables: Tables, fn: (fork: Tables) => T): T {
  const fork = tables.fork()
  const result = fn(fork)
  tables.absorb(fork)
  return result
}

async function runTransaction<R>(schema: Schema, committed: Tables, fn: (tx: Adapter) => Promise<R>): Promise<R> {
  const working = committed.fork()
  let open = true
  const ensureOpen = (): void => {
    // A `tx` kept past its transaction would write into a snapshot nobody commits.
    if (!open) throw new Error('This transaction has already finished; use the adapter it was started from')
  }
  const tx = bindAdapter(schema, {
    read: async (read) => {
      ensureOpen()
      return read(working)
    },
    write: async (write) => {
      ensureOpen()
      return applyWrite(working, write)
    },
    transaction: async (inner, self) => {
      ensureOpen()
      // Nested transactions join the outer one (adapter contract).
      return inner(self)
    },
  })
  try {
    const result = await fn(tx)
    committed.absorb(working)
    return result
  } finally {
    open = false
  }
}

/** Rows leave the store as copies typed as the caller asked, as every adapter's rows are. */
function typed<T extends Row>(row: Row): T {
  return row as T
}

function bindAdapter(schema: Schema, scope: Scope): Adapter {
  const adapter: Adapter = {
    id: 'memory',
    capabilities: { transactions: true, migrations: false },
    schema,
    async create<T extends Row = Row>({ model, data }: { model: string; data: Row }): Promise<T> {
      return typed<T>(await scope.write((tables) => operations.createRow(schema, tables, model, data)))
    },
    async findOne<T extends Row = Row>({ model, where, join }: { model: string; where: WhereInput; join?: Joins }): Promise<T | null> {
      const joins = resolveJoins(schema, model, join)
      const row = await scope.read((tables) => {
        const found = operations.findOne(schema, tables, model, where)
        if (found) attachJoins(tables, [found], joins)
        return found
      })
      return row ? typed<T>(row) : null
    },
    async findMany<T extends Row = Row>(args: {
      model: string
      where?: WhereInput
      sortBy?: SortBy | readonly SortBy[]
      limit?: number
      offset?: number
      join?: Joins
    }): Promise<T[]> {
      const joins = resolveJoins(schema, args.model, args.join)
      const rows = await scope.read((tables) => {
        const found = operations.findMany(schema, tables, args)
        attachJoins(tables, found, joins)
        return found
      })
      return rows.map((row) => typed<T>(row))
    },
    count: ({ model, where }) => scope.read((tables) => operations.count(schema, tables, model, where)),
    async update<T extends Row = Row>({ model, where, update }: { model: string; where: WhereInput; update: Row }): Promise<T | null> {
      const row = await scope.write((tables) => operations.updateRow(schema, tables, model, where, update))
      return row ? typed<T>(row) : null
    },
    updateMany: ({ model, where, update }) => scope.write((tables) => operations.updateRows(schema, tables, model, where, update)),
    async delete({ model, where }) {
      await scope.write((tables) => operations.deleteRow(schema, tables, model, where))
    },
    deleteMany: ({ model, where }) => scope.write((tables) => operations.deleteMatching(schema, tables, model, where)),
    async consume<T extends Row = Row>({ model, where }: { model: string; where: WhereInput }): Promise<T | null> {
      const row = await scope.write((tables) => operations.deleteRow(schema, tables, model, where))
      return row ? typed<T>(row) : null
    },
    // Transactions queue on one lock and never interleave: the row needs no lock of its own.
    async lock<T extends Row = Row>({ model, where }: { model: string; where: WhereInput }): Promise<T | null> {
      const row = await scope.read((tables) => operations.findFirstById(schema, tables, model, where))
      return row ? typed<T>(row) : null
    },
    transaction: (fn) => scope.transaction(fn, adapter),
  }
  return adapter
}
