/**
 * @module
 * Input schemas shared by the routes: permission statements, bounded so a
 * body cannot make the server store or compare megabytes.
 */
import { z } from 'zod'

export const statementsSchema = z.record(z.string().min(1).max(64), z.array(z.string().min(1).max(64)).max(64)).refine((value) => Object.keys(value).length <= 64, {
  message: 'at most 64 resources',
})

/** Metadata: a JSON object of bounded size (the route checks its type and whether metadata is on). */
export const metadataSchema = z.unknown().refine((value) => value === undefined || JSON.stringify(value).length <= 8192, { message: 'metadata too large' })
