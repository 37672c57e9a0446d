/**
 * @module
 * Every code check runs here (docs/two-factor.md#attempts-and-lockout): in one
 * transaction that first locks the user's `twoFactor` row, so checks of one
 * user never interleave, on any backend. A locked-out budget is refused
 * before the code is even looked at (the lockout cannot be guessed through).
 *
 * Two budgets per user, each with its own counter, lockout and escalation:
 * one-time codes (TOTP and emailed codes: both `digits` digits, so an attacker
 * gets no more guesses by alternating them) and backup codes (so a lockout of
 * the authenticator, which anyone holding the password can provoke, leaves the
 * owner their backup codes, and the other way round). A wrong code counts
 * against the user, not the client address: after `maxAttempts` in a row the
 * budget locks for `duration` seconds, and each further lockout without a
 * right code in between lasts twice as long, up to `maxDuration` (24 hours).
 * So a guesser holding the password gets about 45 guesses in the first day
 * and 5 a day after, instead of a fresh 5 every 5 minutes (1,440 a day). A
 * right code resets its own budget, escalation included. The owner hears of
 * each lockout through `onLockout`, after it is stored.
 */
import { publicRow, type EndpointContext, type Row, type Store, type User } from '@gatehouse/core'
import type { ResolvedTwoFactorOptions, TwoFactorFactor } from '../options.js'
import type { TwoFactorRow } from './state.js'

/** What a code check found: a match (with fields to store on the row), or none. */
export type CheckResult = { readonly ok: true; readonly update?: Row } | { readonly ok: false }

export type GuardOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'not-set-up' | 'locked' }
  /** `engaged`: this wrong code locked the budget, until then. */
  | { readonly ok: false; readonly reason: 'invalid'; readonly engaged: Date | null }

export type Budget = 'code' | 'backup'

const FIELDS = {
  code: { failures: 'failedAttempts', until: 'lockedUntil', lockouts: 'lockouts' },
  backup: { failures: 'backupFailedAttempts', until: 'backupLockedUntil', lockouts: 'backupLockouts' },
} as const

/** The guessing budget a kind of code draws on. */
export function budgetOf(factor: TwoFactorFactor): Budget {
  return factor === 'backup-code' ? 'backup' : 'code'
}

/** True while the budget is locked (send-otp refuses to mail while one-time codes are). */
export function isLockedOut(row: TwoFactorRow, now: Date, budget: Budget = 'code'): boolean {
  const until = row[FIELDS[budget].until]
  return until instanceof Date && until.getTime() > now.getTime()
}

/** Seconds of the `n`-th lockout in a row (1 for the first): doubling from `duration`, capped at `maxDuration`. */
export function lockoutSeconds(options: ResolvedTwoFactorOptions, n: number): number {
  const { duration, maxDuration } = options.lockout
  // 2^31 and more only overflow the product: past the cap long before.
  return Math.min(duration * 2 ** Math.min(Math.max(n - 1, 0), 30), maxDuration)
}

/** A right code, inside the row lock: its budget starts over (escalation included) and the check's update is stored. */
export async function recordSuccess(tx: Store, row: TwoFactorRow, budget: Budget, update: Row = {}): Promise<void> {
  const fields = FIELDS[budget]
  await tx.update({
    model: 'twoFactor',
    where: { field: 'id', value: row.id },
    update: { ...update, [fields.failures]: 0, [fields.until]: null, [fields.lockouts]: 0 },
  })
}

/** A wrong code, inside the row lock: counted; the `maxAttempts`-th locks the budget. The lockout's end when it engaged. */
export async function recordFailure(
  ctx: Pick<EndpointContext, 'clock' | 'logger'>,
  tx: Store,
  options: ResolvedTwoFactorOptions,
  row: TwoFactorRow,
  budget: Budget,
): Promise<Date | null> {
  const fields = FIELDS[budget]
  const failures = (row[fields.failures] ?? 0) + 1
  const where = { field: 'id', value: row.id }
  if (failures < options.lockout.maxAttempts) {
    await tx.update({ model: 'twoFactor', where, update: { [fields.failures]: failures } })
    ctx.logger.warn('two-factor: wrong code', { budget, locked: false })
    return null
  }
  const lockouts = (row[fields.lockouts] ?? 0) + 1
  const until = new Date(ctx.clock.now().getTime() + lockoutSeconds(options, lockouts) * 1000)
  await tx.update({ model: 'twoFactor', where, update: { [fields.failures]: 0, [fields.until]: until, [fields.lockouts]: lockouts } })
  ctx.logger.warn('two-factor: wrong code', { budget, locked: true, lockouts })
  return until
}

/**
 * @example
 * const outcome = await guardedCheck(ctx, options, userId, 'totp', async (tx, row) => ({ ok: code === '123456' }))
 */
export async function guardedCheck(
  ctx: EndpointContext,
  options: ResolvedTwoFactorOptions,
  userId: string,
  factor: TwoFactorFactor,
  check: (tx: Store, row: TwoFactorRow) => Promise<CheckResult>,
): Promise<GuardOutcome> {
  const budget = budgetOf(factor)
  const outcome = await ctx.db.transaction(async (tx): Promise<GuardOutcome> => {
    const row = await tx.lock<TwoFactorRow & Row>({ model: 'twoFactor', where: { field: 'userId', value: userId } })
    if (!row) return { ok: false, reason: 'not-set-up' }
    if (isLockedOut(row, ctx.clock.now(), budget)) return { ok: false, reason: 'locked' }
    const result = await check(tx, row)
    if (result.ok) {
      await recordSuccess(tx, row, budget, result.update)
      return { ok: true }
    }
    // Returned, not thrown: the count must commit with the refusal.
    return { ok: false, reason: 'invalid', engaged: await recordFailure(ctx, tx, options, row, budget) }
  })
  if (!outcome.ok && outcome.reason === 'invalid' && outcome.engaged) await notifyLockout(ctx, options, userId, factor, outcome.engaged)
  return outcome
}

/**
 * Tells the owner a lockout engaged (`onLockout`), once it is committed. Never
 * with a code. A failing callback is logged: the refusal stands either way.
 */
export async function notifyLockout(
  ctx: EndpointContext,
  options: ResolvedTwoFactorOptions,
  userId: string,
  factor: TwoFactorFactor,
  until: Date,
): Promise<void> {
  const send = options.onLockout
  if (!send) return
  try {
    const user = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: userId } })
    if (!user) return
    await send({ user: publicRow(ctx.auth.schema, 'user', user), factor, until }, { request: ctx.request })
  } catch (error) {
    ctx.logger.error('two-factor: onLockout callback failed', { error: error instanceof Error ? error.name : typeof error })
  }
}
