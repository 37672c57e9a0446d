/**
 * @module
 * Turns a challenge that could not be consumed into its catalogue error.
 * A challenge of the wrong purpose is answered like a missing one: a
 * register challenge never serves a sign-in, and the reverse.
 */
import { AuthError } from '@gatehouse/core'
import type { ConsumedChallenge } from '../challenge.js'
import { PasskeyErrors } from '../errors.js'

export function challengeRefusal(result: Extract<ConsumedChallenge, { ok: false }>): AuthError {
  return new AuthError(result.reason === 'expired' ? PasskeyErrors.CHALLENGE_EXPIRED : PasskeyErrors.CHALLENGE_NOT_FOUND)
}

/** What a failed ceremony check logs: the library's reason, never the answer itself. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : typeof error
}
