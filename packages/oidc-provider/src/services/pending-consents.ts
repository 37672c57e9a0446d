/**
 * @module
 * The browser's pending consent requests (docs/oidc-provider.md#consent).
 * Each authorization that needs consent stores its grant under a fresh
 * pending-consent token (codes.ts) and adds `{ id, token }` to the signed
 * `oidc_consent_prompt` cookie; the consent page gets the id as `consent_id`
 * and posts it back. The decision then applies to the request the page
 * showed, never to another one the browser started meanwhile.
 *
 * The attack this stops: while the user looks at the consent page of a
 * client they trust, a page of the attacker's opens an authorization of the
 * attacker's own client in a popup. With one pending request per browser the
 * popup replaced it, and the user's "Allow" granted the attacker's client
 * (offline_access included). Now each request keeps its own entry.
 *
 * The consent page reads what it shows from GET /oauth2/consent by its id
 * (never from its own URL, which anyone can write), and that read marks the
 * entry shown, with a sequence number. An answer without `consentId` (the
 * wire format of pages that post `{ accept }` alone) is taken only for the
 * one request that was shown, when no other live request was shown too and
 * none was created after it: a popup's request, shown or not, makes it
 * ambiguous, and ambiguity is refused (docs/oidc-provider.md#consent).
 */
import type { CookieJar, Random, Row, Store, Clock } from '@gatehouse/core'
import { codeIdentifier } from './codes.js'

export const CONSENT_COOKIE = 'oidc_consent_prompt'
/** Requests kept per browser; older ones are dropped (each lives 10 minutes anyway). */
export const MAX_PENDING_CONSENTS = 5
/** 96 bits: an id names a request of this browser, it is no secret (the token stays in the signed cookie). */
const ID_LENGTH = 16

export interface PendingConsent {
  readonly id: string
  readonly token: string
  /** Set by GET /oauth2/consent: the order in which this browser's consent page loaded the requests. */
  readonly shown?: number | undefined
}

interface Ctx {
  readonly cookies: CookieJar
  readonly random: Random
}

/** The browser's pending requests, oldest first. A cookie of the former single-token format is one entry without an id. */
export function readPendingConsents(cookies: CookieJar): PendingConsent[] {
  const text = cookies.getSigned(CONSENT_COOKIE)
  if (!text) return []
  try {
    const parsed: unknown = JSON.parse(text)
    if (!Array.isArray(parsed)) return []
    return parsed
      .filter(
        (entry): entry is PendingConsent => typeof entry === 'object' && entry !== null && typeof entry.id === 'string' && typeof entry.token === 'string',
      )
      .map((entry) => (typeof entry.shown === 'number' ? { id: entry.id, token: entry.token, shown: entry.shown } : { id: entry.id, token: entry.token }))
  } catch {
    return [{ id: '', token: text }]
  }
}

export function writePendingConsents(cookies: CookieJar, entries: readonly PendingConsent[], maxAge: number): void {
  if (entries.length === 0) cookies.delete(CONSENT_COOKIE)
  else cookies.setSigned(CONSENT_COOKIE, JSON.stringify(entries.slice(-MAX_PENDING_CONSENTS)), { maxAge })
}

/** `entries` with the one named `id` marked as the most recently shown. */
export function markShown(entries: readonly PendingConsent[], id: string): PendingConsent[] {
  const latest = Math.max(0, ...entries.map((entry) => entry.shown ?? 0))
  return entries.map((entry) => (entry.id === id ? { ...entry, shown: latest + 1 } : entry))
}

/**
 * The request an answer without `consentId` is for: among the live entries
 * (oldest first), the only one shown, provided none was created after it.
 * `none` when nothing is pending; `ambiguous` otherwise.
 */
export function shownRequest(live: readonly PendingConsent[]): PendingConsent | 'none' | 'ambiguous' {
  if (live.length === 0) return 'none'
  const shown = live.filter((entry) => entry.shown !== undefined)
  const [only, ...others] = shown
  if (!only || others.length > 0) return 'ambiguous'
  return live[live.length - 1] === only ? only : 'ambiguous'
}

/** Adds a request's pending-consent token; returns the id the consent page posts back. */
export function addPendingConsent(ctx: Ctx, token: string, maxAge: number): string {
  const id = ctx.random.string(ID_LENGTH)
  writePendingConsents(ctx.cookies, [...readPendingConsents(ctx.cookies), { id, token }], maxAge)
  return id
}

/** Whether a pending-consent token is still stored and unexpired (answered or expired ones are not). */
export async function isLive(db: Store, clock: Clock, token: string): Promise<boolean> {
  const row = await db.findOne<Row & { expiresAt: Date }>({ model: 'verification', where: { field: 'identifier', value: await codeIdentifier('consent', token) } })
  return row !== null && row.expiresAt.getTime() > clock.now().getTime()
}
