/**
 * @module
 * `runMigrations(auth)` and `generateMigrations(auth)`: bring the database to
 * the merged schema of core, plugins and additional fields. Idempotent: a
 * second run has nothing to do. The adapter computes the difference; the
 * in-memory adapter has nothing to migrate.
 */
import type { MigrationResult } from '../db/adapter.js'
import type { AuthContext } from '../endpoint/context.js'

interface HasContext {
  readonly $context: Promise<AuthContext>
}

/**
 * Creates missing tables, columns and indexes, and returns the statements it ran.
 *
 * @example
 * await runMigrations(auth) // at start-up, or `gatehouse migrate` in a deploy step
 */
export async function runMigrations(auth: HasContext): Promise<MigrationResult> {
  const { adapter } = await auth.$context
  if (!adapter.migrate) return { statements: [], applied: false }
  return adapter.migrate({ dryRun: false })
}

/**
 * The SQL `runMigrations` would run, without running it: for review.
 *
 * @example
 * const { statements } = await generateMigrations(auth)
 * console.log(statements.join(';\n'))
 */
export async function generateMigrations(auth: HasContext): Promise<MigrationResult> {
  const { adapter } = await auth.$context
  if (!adapter.migrate) return { statements: [], applied: false }
  return adapter.migrate({ dryRun: true })
}
