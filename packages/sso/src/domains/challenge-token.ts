/**
 * @module
 * Domain verification tokens (docs/sso.md#verifying-a-domain), kept in core's
 * verification table under `sso-domain:<providerId>` for seven days. A token is
 * 32 characters of 62 from the CSPRNG (~190 bits). It is stored in clear: it
 * is no credential, the organization publishes it in DNS.
 *
 * The stored value binds the token to the provider row (its id, not only its
 * providerId) and to the domain it was issued for. Without that, a token
 * published for one domain would verify another after an update, or a
 * provider registered later under a deleted provider's providerId, by anyone
 * (another organization included), would inherit a token already sitting in
 * the victim's DNS and verify the victim's domain. Update and delete remove
 * the provider's tokens as well (routes/provider).
 */
import type { EndpointContext, Row, Store } from '@gatehouse/core'

export const CHALLENGE_TTL_SECONDS = 7 * 24 * 3600
const TOKEN_LENGTH = 32

/** What a token is valid for: one provider row and one domain. */
export interface ChallengeSubject {
  readonly id: string
  readonly providerId: string
  readonly domain: string
}

interface StoredChallenge {
  readonly token: string
  readonly provider: string
  readonly domain: string
}

type Ctx = Pick<EndpointContext, 'db' | 'clock' | 'random'>

/**
 * @example
 * challengeIdentifier('acme') // 'sso-domain:acme'
 */
export function challengeIdentifier(providerId: string): string {
  return `sso-domain:${providerId}`
}

function parse(value: unknown): StoredChallenge | null {
  if (typeof value !== 'string') return null
  try {
    const parsed: unknown = JSON.parse(value)
    if (typeof parsed !== 'object' || parsed === null) return null
    const { token, provider, domain } = parsed as Record<string, unknown>
    if (typeof token !== 'string' || typeof provider !== 'string' || typeof domain !== 'string') return null
    return { token, provider, domain }
  } catch {
    return null
  }
}

/**
 * The unexpired tokens issued for this provider row and its current domain, newest first.
 *
 * @example
 * const tokens = await activeChallenges(ctx, provider)
 */
export async function activeChallenges(ctx: Ctx, subject: ChallengeSubject, db: Store = ctx.db): Promise<string[]> {
  const rows = await db.findMany<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: challengeIdentifier(subject.providerId) },
    sortBy: { field: 'createdAt', direction: 'desc' },
  })
  const now = ctx.clock.now().getTime()
  const tokens: string[] = []
  for (const row of rows) {
    if (row.expiresAt.getTime() <= now) continue
    const stored = parse(row.value)
    if (stored && stored.provider === subject.id && stored.domain === subject.domain) tokens.push(stored.token)
  }
  return tokens
}

/**
 * The active token of this provider and domain, or a new one (stored through `db`).
 *
 * @example
 * const token = await issueChallenge(ctx, provider) // publish it at _gatehouse-challenge.<domain>
 */
export async function issueChallenge(ctx: Ctx, subject: ChallengeSubject, db: Store = ctx.db): Promise<string> {
  const [active] = await activeChallenges(ctx, subject, db)
  if (active) return active
  const token = ctx.random.string(TOKEN_LENGTH)
  await db.create({
    model: 'verification',
    data: {
      identifier: challengeIdentifier(subject.providerId),
      value: JSON.stringify({ token, provider: subject.id, domain: subject.domain } satisfies StoredChallenge),
      expiresAt: new Date(ctx.clock.now().getTime() + CHALLENGE_TTL_SECONDS * 1000),
    },
  })
  return token
}

/** Removes every token of `providerId` (its domain changed, it was verified, or it is deleted). */
export async function deleteChallenges(db: Store, providerId: string): Promise<void> {
  await db.deleteMany({ model: 'verification', where: { field: 'identifier', value: challengeIdentifier(providerId) } })
}
