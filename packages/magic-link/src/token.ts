/**
 * @module
 * Magic-link tokens in the verification table (docs/magic-link.md#security):
 * 32 letters and digits from the CSPRNG (~190 bits). The row's identifier is
 * "magic-link:" and the token's SHA-256, so a database dump holds no usable
 * link, and the prefix binds the token to this flow: looked up as a reset or
 * delete-account token (their own prefixes) it finds nothing, and theirs
 * find nothing here. The row's value holds the address and the name given
 * at sign-in. Consumption is the adapter's atomic consume: one winner.
 */
import { sha256Base64url, type AuthContext, type Row, type Store } from '@gatehouse/core'

export const TOKEN_LENGTH = 32
const PREFIX = 'magic-link:'

export interface LinkClaims {
  readonly email: string
  readonly name: string | null
}

type Ctx = Pick<AuthContext, 'db' | 'clock' | 'random'>

function identifier(token: string): string {
  return `${PREFIX}${sha256Base64url(token)}`
}

/** Stores a fresh token for `claims`; returns it (for the link) and the row id (to undo a failed mail). */
export async function createLinkToken(ctx: Ctx, claims: LinkClaims, expiresInSeconds: number): Promise<{ token: string; id: string }> {
  const token = ctx.random.string(TOKEN_LENGTH)
  const row = await ctx.db.create({
    model: 'verification',
    data: {
      identifier: identifier(token),
      value: JSON.stringify({ email: claims.email, name: claims.name }),
      expiresAt: new Date(ctx.clock.now().getTime() + expiresInSeconds * 1000),
    },
  })
  return { token, id: String(row.id) }
}

export type ConsumedLink = { readonly ok: true; readonly claims: LinkClaims } | { readonly ok: false; readonly reason: 'invalid' | 'expired' }

/** Consumes the token (an expired one too, so it is gone); its claims when it was valid. */
export async function consumeLinkToken(ctx: Pick<AuthContext, 'clock'>, db: Store, token: string): Promise<ConsumedLink> {
  if (token.length !== TOKEN_LENGTH) return { ok: false, reason: 'invalid' }
  const row = await db.consume<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(token) },
  })
  if (!row) return { ok: false, reason: 'invalid' }
  if (row.expiresAt.getTime() <= ctx.clock.now().getTime()) return { ok: false, reason: 'expired' }
  const claims = readClaims(row.value)
  return claims ? { ok: true, claims } : { ok: false, reason: 'invalid' }
}

/**
 * The token's claims when it is valid, without consuming it: the GET that
 * must ask before switching accounts (routes/verify-magic-link.ts) leaves
 * the link usable for the POST that completes it.
 */
export async function peekLinkToken(ctx: Pick<AuthContext, 'db' | 'clock'>, token: string): Promise<LinkClaims | null> {
  if (token.length !== TOKEN_LENGTH) return null
  const row = await ctx.db.findOne<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(token) },
  })
  if (!row || row.expiresAt.getTime() <= ctx.clock.now().getTime()) return null
  return readClaims(row.value)
}

export async function deleteLinkToken(ctx: Pick<AuthContext, 'db'>, id: string): Promise<void> {
  await ctx.db.delete({ model: 'verification', where: { field: 'id', value: id } })
}

function readClaims(value: string): LinkClaims | null {
  try {
    const parsed = JSON.parse(value) as { email?: unknown; name?: unknown }
    if (typeof parsed.email !== 'string') return null
    return { email: parsed.email, name: typeof parsed.name === 'string' ? parsed.name : null }
  } catch {
    return null
  }
}
