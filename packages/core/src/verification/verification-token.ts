/**
 * @module
 * Single-use random tokens kept in the verification table (docs/core.md#tables): the
 * password-reset token ("reset-password:{token}") and the delete-account
 * token ("delete-account-{token}"). The identifier stores the token's SHA-256,
 * not the token, so a database dump holds no usable link. The purpose prefix
 * binds a token to its flow: a reset token looked up as a delete token finds
 * nothing. Consumption is the adapter's atomic consume: one winner.
 */
import { sha256Base64url } from '../crypto/keys.js'
import { generateToken, LOWERCASE_ALPHANUMERIC } from '../crypto/random.js'
import type { Row } from '../db/adapter.js'
import type { Store } from '../db/store.js'
import type { AuthContext } from '../endpoint/context.js'

export type TokenPurpose = 'reset-password' | 'delete-account'

const purposes: Record<TokenPurpose, { prefix: string; length: number; alphabet?: string }> = {
  // 24 letters and digits, ~143 bits (docs/accounts.md#password-reset).
  'reset-password': { prefix: 'reset-password:', length: 24 },
  // 32 digits and lowercase letters, ~165 bits (docs/accounts.md#deleting-the-user).
  'delete-account': { prefix: 'delete-account-', length: 32, alphabet: LOWERCASE_ALPHANUMERIC },
}

function identifier(purpose: TokenPurpose, token: string): string {
  return `${purposes[purpose].prefix}${sha256Base64url(token)}`
}

type Ctx = Pick<AuthContext, 'db' | 'clock' | 'random'>

/** Stores `value` (a user id) under a fresh token; returns the token for the mailed link. */
export async function createVerificationToken(
  ctx: Ctx,
  purpose: TokenPurpose,
  value: string,
  expiresInSeconds: number,
): Promise<{ token: string; id: string }> {
  const spec = purposes[purpose]
  const token = generateToken(ctx.random, spec.length, spec.alphabet)
  const row = await ctx.db.create({
    model: 'verification',
    data: {
      identifier: identifier(purpose, token),
      value,
      expiresAt: new Date(ctx.clock.now().getTime() + expiresInSeconds * 1000),
    },
  })
  return { token, id: String(row.id) }
}

/** The stored value if the token is valid and unexpired, consuming it; null otherwise. */
export async function consumeVerificationToken(
  ctx: Ctx,
  purpose: TokenPurpose,
  token: string,
  db: Store = ctx.db,
): Promise<string | null> {
  const row = await db.consume<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(purpose, token) },
  })
  if (!row || row.expiresAt.getTime() <= ctx.clock.now().getTime()) return null
  return row.value
}

/** Whether the token is valid, without consuming it (GET reset-password/{token} only checks). */
export async function peekVerificationToken(ctx: Ctx, purpose: TokenPurpose, token: string): Promise<string | null> {
  const row = await ctx.db.findOne<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(purpose, token) },
  })
  if (!row || row.expiresAt.getTime() <= ctx.clock.now().getTime()) return null
  return row.value
}

/** Removes a token that was created but whose mail could not be sent. */
export async function deleteVerificationToken(ctx: Ctx, id: string): Promise<void> {
  await ctx.db.delete({ model: 'verification', where: { field: 'id', value: id } })
}
