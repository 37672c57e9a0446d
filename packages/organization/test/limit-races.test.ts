/**
 * Limits and the last-owner rule under concurrency (race-cases.ts), on every
 * backend: the memory adapter, SQLite, and PostgreSQL and MariaDB when
 * configured (where parallel requests run on pooled connections and really
 * interleave).
 */
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { backendDialects, createTestBackend, type TestBackend } from '../../core/test/kysely-backends.js'
import { organizationRaces, type RaceBackend } from './race-cases.js'

const backends: readonly RaceBackend[] = [
  { name: 'memory', enabled: true, migrates: false, open: async () => ({ factory: memoryAdapter() }) },
  ...backendDialects.map(({ dialect, enabled }) => ({
    name: dialect,
    enabled,
    migrates: true,
    open: async (): Promise<TestBackend> => createTestBackend(dialect),
  })),
]

for (const backend of backends) organizationRaces(backend)
