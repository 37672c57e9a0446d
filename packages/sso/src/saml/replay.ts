/**
 * @module
 * Each assertion is accepted once (docs/sso.md#saml-replay): its ID is
 * claimed under `sso-saml-assertion:` and the SHA-256 of the provider and
 * the ID, kept until the assertion can no longer pass the time checks (its
 * latest NotOnOrAfter plus the allowed skew), so a captured response posted
 * again, by the same browser or another, or to another server process, is
 * refused as a replay (SAML Profiles §4.1.4.5).
 *
 * The claim must be atomic across processes. With secondary storage that
 * counts (`increment`, Redis runs it as one script), the first increment
 * wins. Otherwise the claim goes to core's verification table inside a
 * transaction that first locks the provider's row: claims for one provider
 * queue on that lock, so the second one reads the first one's committed
 * row and loses. A provider deleted meanwhile has no row to lock, and
 * nothing is claimed.
 */
import { sha256Base64url, type EndpointContext, type Row } from '@gatehouse/core'
import type { StoredProvider } from '../types.js'

const PREFIX = 'sso-saml-assertion:'
/** The provider table (schema.ts). */
const PROVIDER_MODEL = 'ssoProvider'

export type Claim = 'claimed' | 'replayed' | 'provider_gone'

type Ctx = Pick<EndpointContext, 'db' | 'clock' | 'auth'>

/**
 * @example
 * if ((await claimAssertion(ctx, provider, assertion.id, validUntil)) !== 'claimed') return refuse('replayed_assertion')
 */
export async function claimAssertion(ctx: Ctx, provider: Pick<StoredProvider, 'id' | 'providerId'>, assertionId: string, validUntil: Date): Promise<Claim> {
  const key = `${PREFIX}${sha256Base64url(`${provider.providerId}\n${assertionId}`)}`
  const now = ctx.clock.now().getTime()
  // At least a minute: an assertion at the edge of its validity is still refused if posted twice in a row.
  const ttlMs = Math.max(validUntil.getTime() - now, 60_000)
  const storage = ctx.auth.secondaryStorage
  if (storage?.increment) {
    const { value } = await storage.increment(key, Math.ceil(ttlMs / 1000))
    return value === 1 ? 'claimed' : 'replayed'
  }
  return ctx.db.transaction(async (tx) => {
    const locked = await tx.lock({ model: PROVIDER_MODEL, where: { field: 'id', value: provider.id } })
    if (!locked) return 'provider_gone'
    const existing = await tx.findOne<Row>({ model: 'verification', where: { field: 'identifier', value: key } })
    if (existing) return 'replayed'
    await tx.create({
      model: 'verification',
      data: { identifier: key, value: JSON.stringify({ providerId: provider.providerId }), expiresAt: new Date(now + ttlMs) },
    })
    return 'claimed'
  })
}
