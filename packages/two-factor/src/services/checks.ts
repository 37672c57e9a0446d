/**
 * @module
 * The code checks themselves, run inside the user's row lock
 * (services/guard.ts) by the verify routes and by the proof of the settings
 * routes (services/proof.ts), so a code is accepted the same way, once,
 * wherever it is typed:
 *
 * - TOTP: the matched time step must be later than the last one used
 *   (RFC 6238 §5.2: each step is accepted once; a replay is a wrong code);
 * - backup code: consumed (its row deleted) with the adapter's atomic
 *   consume, so of parallel uses of one code exactly one succeeds.
 */
import type { EndpointContext, Store } from '@gatehouse/core'
import { codeHashCandidates, normalizeBackupCode } from '../crypto/codes.js'
import { openSecret } from '../crypto/secret-box.js'
import { matchTotp } from '../crypto/totp.js'
import type { ResolvedTwoFactorOptions, TwoFactorFactor } from '../options.js'
import type { CheckResult } from './guard.js'
import type { TwoFactorRow } from './state.js'

/**
 * @example
 * const result = await checkTotp(ctx, options, row, '123456') // { ok: true, update: { lastUsedStep } }
 */
export async function checkTotp(
  ctx: Pick<EndpointContext, 'secrets' | 'clock'>,
  options: ResolvedTwoFactorOptions,
  row: TwoFactorRow,
  code: string,
): Promise<CheckResult> {
  const secret = await openSecret(ctx.secrets, row.userId, row.secret)
  if (!secret) return { ok: false }
  const step = await matchTotp(secret, code.trim(), ctx.clock.now(), options)
  // A replay: this step, or an earlier one, was already used.
  if (step === null || (row.lastUsedStep !== null && row.lastUsedStep !== undefined && step <= row.lastUsedStep)) return { ok: false }
  return { ok: true, update: { lastUsedStep: step } }
}

/**
 * @example
 * const result = await checkBackupCode(ctx, options, tx, userId, 'K7MQ2-X9FPA') // { ok: true }, the code consumed
 */
export async function checkBackupCode(
  ctx: Pick<EndpointContext, 'secrets'>,
  options: ResolvedTwoFactorOptions,
  tx: Store,
  userId: string,
  typed: string,
): Promise<CheckResult> {
  const code = normalizeBackupCode(typed)
  if (code.length !== options.backupCodes.length) return { ok: false }
  const consumed = await tx.consume({
    model: 'twoFactorBackupCode',
    where: [
      { field: 'userId', value: userId },
      { field: 'codeHash', operator: 'in', value: codeHashCandidates(ctx.secrets, 'backup-code', userId, code) },
    ],
  })
  return consumed ? { ok: true } : { ok: false }
}

/**
 * Which kind of code a settings route was given: a backup code is at least 10
 * characters, a TOTP code at most 8 digits, so the length tells them apart.
 */
export function factorOfCode(options: ResolvedTwoFactorOptions, typed: string): Extract<TwoFactorFactor, 'totp' | 'backup-code'> {
  return normalizeBackupCode(typed).length === options.backupCodes.length ? 'backup-code' : 'totp'
}
