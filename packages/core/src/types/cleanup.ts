/**
 * @module
 * What a cleanup deletes, described as data (docs/core.md#cleanup): a model,
 * a date or epoch-ms field, and the cut-off before which a row has no more
 * use. Core lists its own targets; a plugin contributes its own through
 * `cleanup(ctx, now)`. Core runs them all in small batches, so a plugin never
 * writes its own delete loop.
 */
import type { WhereInput } from '../db/adapter.js'

export interface CleanupTarget {
  readonly model: string
  /** A `date` field, or a `number` field holding epoch milliseconds. */
  readonly field: string
  /** Rows whose `field` is strictly before this are deleted. */
  readonly before: Date | number
  /** Narrows the target further (only rows of one kind, say). */
  readonly where?: WhereInput
}

export interface CleanupOptions {
  /** Rows deleted per statement; each batch is its own short statement, so no table stays locked for long. Default 500. */
  readonly batchSize?: number
}

export interface CleanupResult {
  /** Rows deleted per model, every target's model listed (0 when nothing had expired). */
  readonly deleted: Readonly<Record<string, number>>
}
