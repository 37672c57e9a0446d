/**
 * @module
 * Mailed codes in core's verification table (docs/two-factor.md#email-codes):
 * identifier `two-factor-otp:<userId>`, value `{hash, attempts}` with the
 * code's keyed hash (crypto/codes.ts). Checked inside the user's row lock
 * (services/guard.ts), so a code is consumed once however many requests race.
 */
import { constantTimeEqual, type EndpointContext, type Row, type Store } from '@gatehouse/core'
import { codeHashCandidates } from '../crypto/codes.js'

/** Wrong tries one mailed code survives; the user's lockout counts them too. */
export const OTP_MAX_ATTEMPTS = 3

export function otpIdentifier(userId: string): string {
  return `two-factor-otp:${userId}`
}

function readValue(value: unknown): { hash: string; attempts: number } | null {
  try {
    const parsed = JSON.parse(String(value)) as { hash?: unknown; attempts?: unknown }
    if (typeof parsed.hash !== 'string') return null
    return { hash: parsed.hash, attempts: typeof parsed.attempts === 'number' ? parsed.attempts : 0 }
  } catch {
    return null
  }
}

/** True when `code` is the user's live mailed code, which is then deleted; a wrong try is counted. */
export async function checkOtp(ctx: Pick<EndpointContext, 'clock' | 'secrets'>, tx: Store, userId: string, code: string): Promise<boolean> {
  const row = await tx.findOne<Row & { id: string; value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: otpIdentifier(userId) },
  })
  if (!row) return false
  const stored = readValue(row.value)
  const where = { field: 'id', value: row.id }
  if (!stored || row.expiresAt.getTime() <= ctx.clock.now().getTime()) {
    await tx.delete({ model: 'verification', where })
    return false
  }
  const matches = codeHashCandidates(ctx.secrets, 'otp', userId, code).some((candidate) => constantTimeEqual(candidate, stored.hash))
  if (matches) {
    await tx.delete({ model: 'verification', where })
    return true
  }
  const attempts = stored.attempts + 1
  if (attempts >= OTP_MAX_ATTEMPTS) await tx.delete({ model: 'verification', where })
  else await tx.update({ model: 'verification', where, update: { value: JSON.stringify({ hash: stored.hash, attempts }) } })
  return false
}
