/**
 * @module
 * The user's view of their grants (docs/oidc-provider.md#connected-apps):
 * which clients hold something of theirs (a remembered consent, or a token
 * that still works), with the scopes and dates, and ending one client's
 * grant. Ending it deletes the client's tokens of this user and withdraws
 * the consent, stamping when (consents.ts), under the user's lock
 * (tokens.ts): a refresh running at that moment either finishes first and
 * is deleted, or finds its token gone; a code or a pending consent issued
 * before it is refused at redemption or acceptance (it may have been
 * obtained silently with prompt=none seconds before the user pressed
 * Revoke); the next authorization asks for consent again.
 */
import type { Row, Store } from '@gatehouse/core'
import type { ResolvedOidcOptions } from '../options.js'
import { findClient } from './clients.js'
import { withdrawConsent } from './consents.js'
import { lockUser, type TokenRow } from './tokens.js'

interface ConsentRow extends Row {
  clientId: string
  scopes: string
  consentGiven: boolean
  createdAt: Date
}

export interface UserGrant {
  readonly clientId: string
  readonly name: string
  readonly icon: string | null
  /** Every scope the user consented to or a live token carries. */
  readonly scopes: readonly string[]
  /** The earliest consent or authorization. */
  readonly grantedAt: Date
  /** When a token was last issued to the client (a code exchange or a refresh); null with consent only. */
  readonly lastUsedAt: Date | null
}

interface Building {
  scopes: Set<string>
  grantedAt: Date
  lastUsedAt: Date | null
}

const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b)

/** A token row still gives access: its access token, or an unspent refresh token, is unexpired. */
function live(row: TokenRow, now: number): boolean {
  if (row.accessTokenExpiresAt.getTime() > now) return true
  return row.rotatedAt === null && row.refreshTokenExpiresAt !== null && row.refreshTokenExpiresAt.getTime() > now
}

/**
 * @example
 * const grants = await listGrants(ctx.db, options, session.user.id, ctx.clock.now())
 * // [{ clientId: 'notes', name: 'Notes', scopes: ['openid', 'offline_access'], grantedAt, lastUsedAt }]
 */
export async function listGrants(db: Store, options: ResolvedOidcOptions, userId: string, now: Date): Promise<UserGrant[]> {
  const [consents, tokens] = await Promise.all([
    db.findMany<ConsentRow>({ model: 'oauthConsent', where: { field: 'userId', value: userId } }),
    db.findMany<TokenRow>({ model: 'oauthAccessToken', where: { field: 'userId', value: userId } }),
  ])
  const byClient = new Map<string, Building>()
  const entry = (clientId: string, at: Date): Building => {
    const found = byClient.get(clientId)
    if (found) {
      found.grantedAt = earlier(found.grantedAt, at)
      return found
    }
    const created: Building = { scopes: new Set(), grantedAt: at, lastUsedAt: null }
    byClient.set(clientId, created)
    return created
  }
  for (const consent of consents) {
    if (!consent.consentGiven) continue
    const grant = entry(consent.clientId, consent.createdAt)
    for (const scope of consent.scopes.split(' ').filter(Boolean)) grant.scopes.add(scope)
  }
  for (const token of tokens) {
    if (!live(token, now.getTime())) continue
    const grant = entry(token.clientId, token.grantedAt ?? token.createdAt)
    for (const scope of token.scopes.split(' ').filter(Boolean)) grant.scopes.add(scope)
    if (grant.lastUsedAt === null || token.createdAt.getTime() > grant.lastUsedAt.getTime()) grant.lastUsedAt = token.createdAt
  }
  const grants: UserGrant[] = []
  for (const [clientId, grant] of byClient) {
    const client = await findClient(db, options, clientId)
    // A deleted client's rows are left to cleanup; it holds nothing the user can end here.
    if (!client) continue
    grants.push({ clientId, name: client.name, icon: client.icon, scopes: [...grant.scopes], grantedAt: grant.grantedAt, lastUsedAt: grant.lastUsedAt })
  }
  return grants.sort((a, b) => a.grantedAt.getTime() - b.grantedAt.getTime() || a.clientId.localeCompare(b.clientId))
}

/**
 * Ends everything one client holds of one user: its tokens, the remembered
 * consent, and the codes and pending consents issued up to `at`. Returns
 * whether there was a token or a consent to end.
 *
 * @example
 * await revokeClientGrant(ctx.db, session.user.id, 'notes', ctx.clock.now()) // true
 */
export function revokeClientGrant(db: Store, userId: string, clientId: string, at: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await lockUser(tx, userId))) return false
    const mine = [
      { field: 'userId', value: userId },
      { field: 'clientId', value: clientId },
    ]
    const tokens = await tx.deleteMany({ model: 'oauthAccessToken', where: mine })
    const withdrawn = await withdrawConsent(tx, clientId, userId, at)
    return tokens > 0 || withdrawn
  })
}
