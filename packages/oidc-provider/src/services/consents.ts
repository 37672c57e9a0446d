/**
 * @module
 * Remembered consent (docs/oidc-provider.md#consent): one `oauthConsent` row
 * per client and user, holding the scopes granted. A later request within
 * those scopes skips the consent page. The row is unique per (client, user),
 * so two concurrent accepts update one row rather than insert two.
 *
 * Ending a client's grant (connected apps) keeps the row, with the consent
 * withdrawn and `revokedAt` set: codes and pending consents of that client
 * and user issued up to then are refused (docs/oidc-provider.md#connected-apps).
 */
import { isUniqueViolation, type Row, type Store } from '@gatehouse/core'

interface ConsentRow extends Row {
  id: string
  scopes: string
  consentGiven: boolean
  revokedAt: Date | null
}

function where(clientId: string, userId: string) {
  return [
    { field: 'clientId', value: clientId },
    { field: 'userId', value: userId },
  ] as const
}

/** Whether the user already granted every scope in `scopes` to this client. */
export async function hasConsent(db: Store, clientId: string, userId: string, scopes: readonly string[]): Promise<boolean> {
  const row = await db.findOne<ConsentRow>({ model: 'oauthConsent', where: where(clientId, userId) })
  if (!row?.consentGiven) return false
  const granted = new Set(row.scopes.split(' '))
  return scopes.every((scope) => granted.has(scope))
}

/** Records that the user granted `scopes` (added to what they granted before). */
export async function recordConsent(db: Store, clientId: string, userId: string, scopes: readonly string[]): Promise<void> {
  const existing = await db.findOne<ConsentRow>({ model: 'oauthConsent', where: where(clientId, userId) })
  const merged = (known: string) => [...new Set([...known.split(' ').filter(Boolean), ...scopes])].join(' ')
  if (existing) {
    await db.update({ model: 'oauthConsent', where: { field: 'id', value: existing.id }, update: { scopes: merged(existing.scopes), consentGiven: true } })
    return
  }
  try {
    await db.create({ model: 'oauthConsent', data: { clientId, userId, scopes: scopes.join(' '), consentGiven: true } })
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    // A concurrent accept inserted the row first: add our scopes to it.
    const row = await db.findOne<ConsentRow>({ model: 'oauthConsent', where: where(clientId, userId) })
    if (row) await db.update({ model: 'oauthConsent', where: { field: 'id', value: row.id }, update: { scopes: merged(row.scopes), consentGiven: true } })
  }
}

/**
 * Withdraws the consent and stamps the revocation (the row is made if there
 * was none: a client that skips consent has codes to end too). Answers
 * whether a consent was withdrawn.
 */
export async function withdrawConsent(db: Store, clientId: string, userId: string, at: Date): Promise<boolean> {
  const existing = await db.findOne<ConsentRow>({ model: 'oauthConsent', where: where(clientId, userId) })
  if (existing) {
    await db.update({ model: 'oauthConsent', where: { field: 'id', value: existing.id }, update: { scopes: '', consentGiven: false, revokedAt: at } })
    return existing.consentGiven
  }
  try {
    await db.create({ model: 'oauthConsent', data: { clientId, userId, scopes: '', consentGiven: false, revokedAt: at } })
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    // A concurrent accept inserted the row first: withdraw it.
    await db.update({ model: 'oauthConsent', where: where(clientId, userId), update: { scopes: '', consentGiven: false, revokedAt: at } })
    return true
  }
  return false
}

/**
 * Whether the user ended this client's grant at or after `issuedAt` (epoch
 * milliseconds; a code without it counts as issued before any revocation).
 * "At" counts: a code issued in the same millisecond as the revocation is
 * refused rather than guessed about.
 */
export async function revokedSince(db: Store, clientId: string, userId: string, issuedAt: number | undefined): Promise<boolean> {
  const row = await db.findOne<ConsentRow>({ model: 'oauthConsent', where: where(clientId, userId) })
  if (!row?.revokedAt) return false
  return issuedAt === undefined || row.revokedAt.getTime() >= issuedAt
}
