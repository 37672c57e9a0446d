/**
 * @module
 * Every code check runs here (docs/two-factor.md#attempts-and-lockout): in one
 * transaction that first locks the user's `twoFactor` row, so checks of one
 * user never interleave, on any backend. A locked-out user is refused before
 * the code is even looked at. A wrong code (a reused TOTP code included)
 * counts against the user, not the client address: after `maxAttempts` in a
 * row the user is locked for `duration` seconds, whichever addresses the
 * guesses came from. A right code resets the count and applies the check's
 * own update (the last used time step) in the same transaction.
 */
import type { EndpointContext, Row, Store } from '@gatehouse/core'
import type { ResolvedTwoFactorOptions } from '../options.js'
import type { TwoFactorRow } from './state.js'

/** What a code check found: a match (with fields to store on the row), or none. */
export type CheckResult = { readonly ok: true; readonly update?: Row } | { readonly ok: false }

export type GuardOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: 'not-set-up' | 'locked' | 'invalid' }

/**
 * @example
 * const outcome = await guardedCheck(ctx, options, userId, async (tx, row) => ({ ok: code === '123456' }))
 */
export function guardedCheck(
  ctx: EndpointContext,
  options: ResolvedTwoFactorOptions,
  userId: string,
  check: (tx: Store, row: TwoFactorRow) => Promise<CheckResult>,
): Promise<GuardOutcome> {
  return ctx.db.transaction(async (tx) => {
    const row = await tx.lock<TwoFactorRow & Row>({ model: 'twoFactor', where: { field: 'userId', value: userId } })
    if (!row) return { ok: false, reason: 'not-set-up' } as const
    const now = ctx.clock.now()
    if (row.lockedUntil && row.lockedUntil.getTime() > now.getTime()) return { ok: false, reason: 'locked' } as const
    const result = await check(tx, row)
    const where = { field: 'id', value: row.id }
    if (result.ok) {
      await tx.update({ model: 'twoFactor', where, update: { ...result.update, failedAttempts: 0, lockedUntil: null } })
      return { ok: true } as const
    }
    // Returned, not thrown: the count must commit with the refusal.
    const failures = (row.failedAttempts ?? 0) + 1
    const locks = failures >= options.lockout.maxAttempts
    await tx.update({
      model: 'twoFactor',
      where,
      update: locks ? { failedAttempts: 0, lockedUntil: new Date(now.getTime() + options.lockout.duration * 1000) } : { failedAttempts: failures },
    })
    ctx.logger.warn('two-factor: wrong code', { locked: locks })
    return { ok: false, reason: 'invalid' } as const
  })
}

/** True while the user is locked out (send-otp refuses to mail then). */
export function isLockedOut(row: TwoFactorRow, now: Date): boolean {
  return row.lockedUntil !== null && row.lockedUntil !== undefined && row.lockedUntil.getTime() > now.getTime()
}
