/**
 * @module
 * Proof of the second factor for the settings routes that read the TOTP
 * secret, mint backup codes or turn two-factor off
 * (docs/two-factor.md#proof-of-the-second-factor). The password is the factor
 * two-factor is there to distrust: with it alone, whoever can send requests
 * on a session (a script injected into the app, a session from a sign-in the
 * second step does not cover) could copy the seed or mint backup codes (a
 * silent, lasting way past the second step) or switch it off. So besides the
 * password, one of
 *
 * - `code` in the body: a TOTP code (its time step used up) or a backup code
 *   (consumed), checked like any code, against the same budgets;
 * - this session passed the second factor within `proofMaxAge` (10 minutes)
 *   with a TOTP or backup code: the second step of its sign-in, a code
 *   checked while signed in, or the confirmation of the setup
 *   (`session.twoFactorVerifiedAt`, `session.twoFactorMethod`). An emailed
 *   code never counts: whoever reads the mailbox can reset the password and
 *   pass an emailed code, and must not get the seed, fresh backup codes or
 *   the switch (docs/two-factor.md#proof-of-the-second-factor).
 *
 * A user whose two-factor is not on (none, or a setup not yet confirmed) has
 * no second factor to prove: the password alone, as for enable, which could
 * start a new setup anyway. Everything runs under the user's `twoFactor` row
 * lock, and the route's own change in the same transaction, so a setup being
 * confirmed, a code used twice or a disable racing the check all queue.
 */
import { AuthError, type EndpointContext, type Row, type SessionWithUser, type Store } from '@gatehouse/core'
import { TwoFactorErrors } from '../errors.js'
import type { ResolvedTwoFactorOptions, TwoFactorFactor } from '../options.js'
import { SECOND_FACTOR_AMR, withAmr } from './amr.js'
import { checkBackupCode, checkTotp, factorOfCode } from './checks.js'
import { budgetOf, isLockedOut, notifyLockout, recordFailure, recordSuccess } from './guard.js'
import { isEnabled, type TwoFactorRow, type TwoFactorUser } from './state.js'

type Proven<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: 'locked' }
  | { readonly ok: false; readonly reason: 'proof-required' }
  | { readonly ok: false; readonly reason: 'invalid'; readonly factor: 'totp' | 'backup-code'; readonly engaged: Date | null }

/** The kinds of code whose pass on a session proves the second factor to the settings routes: never a mailed one. */
const PROVING: ReadonlySet<unknown> = new Set<TwoFactorFactor>(['totp', 'backup-code'])

/**
 * Records on the session (inside the caller's transaction) that it passed the second factor now, with
 * which kind of code, and adds it to the session's `amr` (services/amr.ts): a step-up of a session
 * signed in another way.
 */
export async function markVerified(ctx: Pick<EndpointContext, 'clock'>, tx: Store, sessionId: string, method: TwoFactorFactor): Promise<void> {
  const where = { field: 'id', value: sessionId }
  const stored = await tx.findOne<{ amr?: string | null } & Row>({ model: 'session', where })
  await tx.update({
    model: 'session',
    where,
    update: { twoFactorVerifiedAt: ctx.clock.now(), twoFactorMethod: method, amr: withAmr(stored?.amr, SECOND_FACTOR_AMR) },
  })
}

/**
 * Whether this session passed the second factor with a TOTP or backup code within `proofMaxAge`
 * (read from the row, never the cookie cache).
 */
export async function hasRecentProof(ctx: Pick<EndpointContext, 'clock'>, options: ResolvedTwoFactorOptions, db: Store, sessionId: string): Promise<boolean> {
  const stored = await db.findOne<{ twoFactorVerifiedAt?: Date | null; twoFactorMethod?: string | null } & Row>({
    model: 'session',
    where: { field: 'id', value: sessionId },
  })
  if (!stored || !PROVING.has(stored.twoFactorMethod)) return false
  const verifiedAt = stored.twoFactorVerifiedAt
  const age = verifiedAt instanceof Date ? ctx.clock.now().getTime() - verifiedAt.getTime() : Number.POSITIVE_INFINITY
  return age >= 0 && age < options.proofMaxAge * 1000
}

/**
 * Runs `act` in the transaction that proved the second factor; throws the
 * refusal otherwise (429 locked, 401 wrong code, 403 no proof).
 *
 * @example
 * const codes = await withSecondFactorProof(ctx, options, ctx.session, ctx.body.code, (tx) => replaceBackupCodes(ctx, tx, options, userId))
 */
export async function withSecondFactorProof<T>(
  ctx: EndpointContext,
  options: ResolvedTwoFactorOptions,
  session: SessionWithUser,
  typed: string | undefined,
  act: (tx: Store, row: (TwoFactorRow & Row) | null) => Promise<T>,
): Promise<T> {
  const userId = session.user.id
  const code = typed?.trim() ? typed.trim() : null
  const proven = await ctx.db.transaction(async (tx): Promise<Proven<T>> => {
    const row = await tx.lock<TwoFactorRow & Row>({ model: 'twoFactor', where: { field: 'userId', value: userId } })
    // The flag as stored now, not as the session read it: a setup confirmed meanwhile needs the proof.
    const user = await tx.findOne<TwoFactorUser & Row>({ model: 'user', where: { field: 'id', value: userId } })
    if (!row || !user || !isEnabled(user)) return { ok: true, value: await act(tx, row) }

    if (code) {
      const factor = factorOfCode(options, code)
      const budget = budgetOf(factor)
      if (isLockedOut(row, ctx.clock.now(), budget)) return { ok: false, reason: 'locked' }
      const result = factor === 'totp' ? await checkTotp(ctx, options, row, code) : await checkBackupCode(ctx, options, tx, userId, code)
      // Returned, not thrown: the count must commit with the refusal.
      if (!result.ok) return { ok: false, reason: 'invalid', factor, engaged: await recordFailure(ctx, tx, options, row, budget) }
      await recordSuccess(tx, row, budget, result.update)
      await markVerified(ctx, tx, session.session.id, factor)
      return { ok: true, value: await act(tx, row) }
    }

    if (!(await hasRecentProof(ctx, options, tx, session.session.id))) return { ok: false, reason: 'proof-required' }
    return { ok: true, value: await act(tx, row) }
  })
  if (proven.ok) return proven.value
  if (proven.reason === 'locked') throw new AuthError(TwoFactorErrors.TOO_MANY_ATTEMPTS)
  if (proven.reason === 'proof-required') throw new AuthError(TwoFactorErrors.TWO_FACTOR_PROOF_REQUIRED)
  if (proven.engaged) await notifyLockout(ctx, options, userId, proven.factor, proven.engaged)
  throw new AuthError(TwoFactorErrors.INVALID_CODE)
}
