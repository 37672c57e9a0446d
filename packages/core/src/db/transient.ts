/**
 * @module
 * Which errors mean "the database or the secondary storage cannot serve this
 * now" rather than "this request is wrong" or "there is a bug": a dropped
 * connection, a server restarting, a deadlock, a Redis outage. The HTTP layer
 * answers them with 503 and `Retry-After` (docs/core.md#transient-faults), so
 * clients retry instead of showing a 500, and no stack or SQL leaves the server.
 */
import { isStorageUnavailable } from '../storage/errors.js'
import { DatabaseError } from './adapter.js'

export interface TransientFault {
  readonly kind: 'database' | 'deadlock' | 'storage'
  /** What the 503 answer's `Retry-After` carries. */
  readonly retryAfterSeconds: number
}

/** A deadlock clears at once; a restart or a failover takes a few seconds. */
const DEADLOCK_RETRY_SECONDS = 1
const UNAVAILABLE_RETRY_SECONDS = 3

/**
 * The fault an error reports, or null when it is not transient. A
 * `DatabaseError` is recognised by its name and code as well as by class,
 * since an adapter entry point may carry its own copy of the class.
 *
 * @example
 * transientFault(new DatabaseError('TRANSIENT', 'Database temporarily unavailable')) // { kind: 'database', retryAfterSeconds: 3 }
 */
export function transientFault(error: unknown): TransientFault | null {
  if (isStorageUnavailable(error)) return { kind: 'storage', retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS }
  if (!(error instanceof DatabaseError) && !(error instanceof Error && error.name === 'DatabaseError')) return null
  const code = Reflect.get(error, 'code')
  if (code === 'DEADLOCK') return { kind: 'deadlock', retryAfterSeconds: DEADLOCK_RETRY_SECONDS }
  if (code === 'TRANSIENT') return { kind: 'database', retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS }
  return null
}
