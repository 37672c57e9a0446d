/**
 * @module
 * The store handlers write through: the adapter contract plus what every
 * write needs — ids, defaults, `createdAt`/`updatedAt` from the context's
 * clock — and the database hooks of plugins and options. Before-hooks may
 * change the data or throw an `AuthError` to veto; after-hooks run only once
 * the write is committed (inside `transaction`, after the commit), so they
 * never see a row that a rollback takes back.
 */
import type { Clock } from '../crypto/clock.js'
import type { Logger } from '../logging/logger.js'
import type { Adapter, Row } from './adapter.js'
import { getModel, type Schema } from './schema.js'

/** What database hooks receive beside the data: the request's context when there is one. */
export interface DatabaseHookContext {
  readonly model: string
  /** The endpoint context of the request that caused the write, if any. */
  readonly endpoint?: unknown
  /**
   * Before-hooks only: the store the write goes through, inside its
   * transaction when there is one. Reads a before-hook makes must use it: on a
   * single-connection backend (SQLite) a read through another store would wait
   * for the transaction holding the connection.
   */
  readonly db?: Store
}

type MaybePromise<T> = T | Promise<T>

export interface ModelHooks {
  readonly create?: {
    readonly before?: ((data: Row, ctx: DatabaseHookContext) => MaybePromise<{ data: Row } | void>) | undefined
    readonly after?: ((row: Row, ctx: DatabaseHookContext) => MaybePromise<void>) | undefined
  } | undefined
  readonly update?: {
    readonly before?: ((update: Row, ctx: DatabaseHookContext) => MaybePromise<{ data: Row } | void>) | undefined
    readonly after?: ((row: Row, ctx: DatabaseHookContext) => MaybePromise<void>) | undefined
  } | undefined
  readonly delete?: {
    readonly before?: ((row: Row, ctx: DatabaseHookContext) => MaybePromise<void>) | undefined
    readonly after?: ((row: Row, ctx: DatabaseHookContext) => MaybePromise<void>) | undefined
  } | undefined
}

/** Hooks per model name: `{ user: { create: { before, after } } }`. */
export type DatabaseHooks = Readonly<Record<string, ModelHooks>>

export interface StoreOptions {
  readonly adapter: Adapter
  readonly schema: Schema
  readonly clock: Clock
  readonly generateId: (model: string) => string
  readonly hooks: readonly DatabaseHooks[]
  readonly logger: Logger
  readonly endpoint?: unknown
}

type Pending = Array<() => Promise<void>>

/** The adapter's data calls, with the same signatures: the store adds ids, timestamps and hooks around them. */
type DataCalls = Pick<Adapter, 'create' | 'findOne' | 'findMany' | 'count' | 'update' | 'updateMany' | 'delete' | 'deleteMany' | 'consume' | 'lock'>

export interface Store extends DataCalls {
  readonly adapter: Adapter
  /** One transaction; after-hooks of the writes inside run once it has committed. */
  transaction<R>(fn: (tx: Store) => Promise<R>): Promise<R>
  /**
   * Runs `task` once the transaction this store belongs to has committed (at
   * once outside a transaction; never after a rollback). A task that throws is
   * logged, not rethrown: the write it follows has already happened. Session
   * revocation uses it to clear secondary storage after the commit
   * (docs/sessions.md#revocation-and-racing-reads).
   *
   * @example
   * await db.transaction(async (tx) => {
   *   await tx.deleteMany({ model: 'session', where })
   *   await tx.afterCommit(() => storage.delete(key))
   * })
   */
  afterCommit(task: () => Promise<void>): Promise<void>
  /** The same store with the request's context handed to database hooks. */
  withEndpoint(endpoint: unknown): Store
}

/**
 * @example
 * const store = createStore({ adapter, schema, clock, generateId, hooks: [], logger })
 * const user = await store.create({ model: 'user', data: { name: 'Ada', email: 'ada@example.com' } })
 */
export function createStore(options: StoreOptions): Store {
  return bind(options, options.adapter, undefined)
}

interface InternalStore extends Store {
  inTransaction<R>(fn: (tx: InternalStore) => Promise<R>): Promise<R>
}

function bind(options: StoreOptions, adapter: Adapter, pending: Pending | undefined): InternalStore {
  const { schema, clock, logger } = options
  const hookContext = (model: string): DatabaseHookContext => ({ model, endpoint: options.endpoint })
  const beforeContext = (model: string, db: Store): DatabaseHookContext => ({ model, endpoint: options.endpoint, db })
  const hooksFor = (model: string) => options.hooks.map((hooks) => hooks[model]).filter((h) => h !== undefined)

  const afterCommit = (task: () => Promise<void>): Promise<void> => {
    if (pending) {
      pending.push(task)
      return Promise.resolve()
    }
    return runAfter(task)
  }
  const runAfter = async (task: () => Promise<void>) => {
    try {
      await task()
    } catch (error) {
      // The write is committed: failing the request now would report an error for a change that happened.
      logger.error('database after-hook failed', { error: error instanceof Error ? error.message : String(error) })
    }
  }

  const prepareWrite = (model: string, data: Row, creating: boolean): Row => {
    const fields = getModel(schema, model).fields
    const now = clock.now()
    const result: Row = { ...data }
    for (const [field, definition] of Object.entries(fields)) {
      const value = result[field]
      if (definition.lowercase && typeof value === 'string') result[field] = value.toLowerCase()
    }
    if (creating && 'createdAt' in fields && result.createdAt === undefined) result.createdAt = now
    if ('updatedAt' in fields && result.updatedAt === undefined) result.updatedAt = now
    return result
  }

  const withDefaults = (model: string, data: Row): Row => {
    const result: Row = { id: options.generateId(model), ...data }
    for (const [field, definition] of Object.entries(getModel(schema, model).fields)) {
      if (result[field] !== undefined || definition.defaultValue === undefined) continue
      const value = definition.defaultValue
      result[field] = typeof value === 'function' ? (value as () => unknown)() : value
    }
    for (const [field, definition] of Object.entries(getModel(schema, model).fields)) {
      if (result[field] === undefined && definition.required === false) result[field] = null
    }
    return prepareWrite(model, result, true)
  }

  const inTransaction = async <R>(fn: (tx: InternalStore) => Promise<R>): Promise<R> => {
    if (pending) return fn(store)
    const queue: Pending = []
    const result = await adapter.transaction((tx) => fn(bind(options, tx, queue)))
    for (const task of queue) await runAfter(task)
    return result
  }

  const store: InternalStore = {
    adapter,
    afterCommit,
    inTransaction,
    async create({ model, data }) {
      let row = withDefaults(model, data)
      const hooks = hooksFor(model)
      for (const hook of hooks) {
        const changed = await hook.create?.before?.(row, beforeContext(model, store))
        if (changed) row = { ...row, ...changed.data }
      }
      const created = await adapter.create({ model, data: row })
      for (const hook of hooks) {
        const after = hook.create?.after
        if (after) await afterCommit(() => Promise.resolve(after(created, hookContext(model))))
      }
      return created as never
    },
    findOne: (args) => adapter.findOne(args),
    findMany: (args) => adapter.findMany(args),
    count: (args) => adapter.count(args),
    async update({ model, where, update }) {
      let data = prepareWrite(model, update, false)
      const hooks = hooksFor(model)
      for (const hook of hooks) {
        const changed = await hook.update?.before?.(data, beforeContext(model, store))
        if (changed) data = { ...data, ...changed.data }
      }
      const updated = await adapter.update({ model, where, update: data })
      if (updated) {
        for (const hook of hooks) {
          const after = hook.update?.after
          if (after) await afterCommit(() => Promise.resolve(after(updated, hookContext(model))))
        }
      }
      return updated as never
    },
    async updateMany({ model, where, update }) {
      const hooks = hooksFor(model)
      if (hooks.some((hook) => hook.update)) {
        // Hooks see each row, so the rows are updated one by one inside one transaction.
        return inTransaction(async (tx) => {
          const rows = await tx.findMany({ model, where })
          for (const row of rows) await tx.update({ model, where: { field: 'id', value: row.id as string }, update })
          return rows.length
        })
      }
      return adapter.updateMany({ model, where, update: prepareWrite(model, update, false) })
    },
    async delete({ model, where }) {
      const hooks = hooksFor(model)
      if (!hooks.some((hook) => hook.delete)) return adapter.delete({ model, where })
      await inTransaction(async (tx) => {
        const row = await tx.findOne({ model, where })
        if (!row) return
        for (const hook of hooks) await hook.delete?.before?.(row, beforeContext(model, tx))
        await tx.adapter.delete({ model, where: { field: 'id', value: row.id as string } })
        for (const hook of hooks) {
          const after = hook.delete?.after
          if (after) await tx.afterCommit(() => Promise.resolve(after(row, hookContext(model))))
        }
      })
    },
    async deleteMany({ model, where }) {
      const hooks = hooksFor(model)
      if (!hooks.some((hook) => hook.delete)) return adapter.deleteMany({ model, where })
      return inTransaction(async (tx) => {
        const rows = await tx.findMany({ model, where })
        for (const row of rows) {
          for (const hook of hooks) await hook.delete?.before?.(row, beforeContext(model, tx))
          await tx.adapter.delete({ model, where: { field: 'id', value: row.id as string } })
          for (const hook of hooks) {
            const after = hook.delete?.after
            if (after) await tx.afterCommit(() => Promise.resolve(after(row, hookContext(model))))
          }
        }
        return rows.length
      })
    },
    consume: (args) => adapter.consume(args),
    lock: (args) => adapter.lock(args),
    transaction: (fn) => inTransaction(fn),
    withEndpoint(endpoint) {
      return bind({ ...options, endpoint }, adapter, pending)
    },
  }
  return store
}
