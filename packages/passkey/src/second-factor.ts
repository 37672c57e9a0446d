/**
 * @module
 * What this plugin asks of a second-factor plugin, without importing one
 * (docs/passkeys.md#registering-a-passkey). A plugin that guards sign-ins
 * with a second factor (`@gatehouse/two-factor`) carries a `secondFactor`
 * member on its plugin object: whether a user has the factor on, and whether
 * a session passed it recently enough to change how the account signs in. A
 * passkey with user verification signs in without that second step, so:
 * registering one on such an account needs that proof, and a password reset
 * of such an account ends its passkeys (plugin.ts).
 */
import type { EndpointContext, GatehousePlugin, Store } from '@gatehouse/core'

export interface SecondFactorSource {
  /** True when the user has the factor on: their password sign-ins ask for it. */
  enrolled(db: Store, userId: string): Promise<boolean>
  /** True when this session passed the factor recently enough (two-factor: a TOTP or backup code in the last 10 minutes). */
  proven(ctx: EndpointContext, sessionId: string): Promise<boolean>
}

function isSource(value: unknown): value is SecondFactorSource {
  return (
    typeof value === 'object' &&
    value !== null &&
    'enrolled' in value &&
    typeof value.enrolled === 'function' &&
    'proven' in value &&
    typeof value.proven === 'function'
  )
}

/**
 * The second factors the other plugins of this auth offer.
 *
 * @example
 * const sources = secondFactorSources(ctx.auth.plugins) // [twoFactor's] with @gatehouse/two-factor, else []
 */
export function secondFactorSources(plugins: readonly GatehousePlugin[]): SecondFactorSource[] {
  const sources: SecondFactorSource[] = []
  for (const plugin of plugins) {
    const source: unknown = 'secondFactor' in plugin ? plugin.secondFactor : undefined
    if (isSource(source)) sources.push(source)
  }
  return sources
}

/** The sources whose factor this user has on. */
export async function enrolledSources(plugins: readonly GatehousePlugin[], db: Store, userId: string): Promise<SecondFactorSource[]> {
  const enrolled: SecondFactorSource[] = []
  for (const source of secondFactorSources(plugins)) if (await source.enrolled(db, userId)) enrolled.push(source)
  return enrolled
}
