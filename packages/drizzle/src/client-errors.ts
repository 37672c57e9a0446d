/**
 * @module
 * A node-postgres pool or client reports a backend that ends under it (a
 * restart, `pg_terminate_backend`, an idle timeout on the server) as an
 * `error` event: on the pool for an idle client, on the client itself for
 * one checked out. Node treats an unlistened `error` event as uncaught and
 * stops the process. The adapter listens as core's `postgresAdapter` does,
 * so a restart costs the requests in flight a 503 with Retry-After, never
 * the process (docs/adapters.md#transient-faults). mysql2's pool already
 * listens on its connections, and postgres-js, better-sqlite3 and libsql
 * report failures only to the query that hit them.
 */
import type { Driver } from './provider.js'

interface Emitter {
  on(event: string, listener: (...args: unknown[]) => void): unknown
  listenerCount(event: string): number
}

function isEmitter(value: unknown): value is Emitter {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'on') === 'function' && typeof Reflect.get(value, 'listenerCount') === 'function'
}

/** The failed client is dropped by the pool, and the query that was running on it fails on its own. */
function ignoreClientError(): void {}

/**
 * Adds the `error` listeners to the node-postgres pool (or client) behind a
 * Drizzle database, unless the application listens already.
 *
 * @example
 * listenForClientErrors('node-postgres', drizzle(pool)) // pool.listenerCount('error') === 1
 */
export function listenForClientErrors(driver: Driver, db: unknown): void {
  if (driver !== 'node-postgres' || typeof db !== 'object' || db === null) return
  const client: unknown = Reflect.get(db, '$client')
  if (!isEmitter(client)) return
  if (client.listenerCount('error') === 0) client.on('error', ignoreClientError)
  // A pool hands out clients: each gets its own listener when it connects.
  if (typeof Reflect.get(client, 'totalCount') === 'number') {
    client.on('connect', (connected) => {
      if (isEmitter(connected) && connected.listenerCount('error') === 0) connected.on('error', ignoreClientError)
    })
  }
}
