/**
 * A provider auth per backend for the suites that run on each: the
 * in-memory adapter, or a schema or database of its own on SQLite,
 * PostgreSQL or MariaDB (core's kysely-backends), migrated before the
 * file's tests and dropped after them.
 */
import { runMigrations, type MigrationResult } from '@gatehouse/core'
import { afterAll, beforeAll } from 'vitest'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { providerAuth, type ProviderAuth } from './fixtures.js'

export type ProviderBackend = 'memory' | (typeof backendDialects)[number]['dialect']

/**
 * Registers the hooks that set the auth up on `backend` and tear it down;
 * `migrated` sees the migration's result (SQL backends only). Answers the
 * auth, once the hooks have run.
 *
 * @example
 * const ready = useProviderBackend('sqlite', (migration) => expect(migration.applied).toBe(true))
 */
export function useProviderBackend(backend: ProviderBackend, migrated?: (migration: MigrationResult) => void): () => ProviderAuth {
  let database: TestBackend | undefined
  let auth: ProviderAuth | undefined
  beforeAll(async () => {
    if (backend === 'memory') {
      auth = providerAuth()
      return
    }
    database = await createTestBackend(backend)
    auth = providerAuth({}, { database: database.factory })
    const migration = await runMigrations(auth)
    migrated?.(migration)
  })
  afterAll(async () => {
    await auth?.close()
    await database?.drop()
  })
  return () => {
    if (!auth) throw new Error('backend not ready')
    return auth
  }
}
