/**
 * @module
 * What the session row says beyond the public session, read from the store
 * by the session's stored token, whichever plugin wrote the field:
 * `impersonatedBy` (the admin plugin: someone else acts as the user, and
 * such a session never authorizes a client, docs/oidc-provider.md#impersonation-sessions)
 * and `amr` (core: how the sign-in was proven, RFC 8176 values, for the ID
 * Token, docs/oidc-provider.md#amr-and-acr). Neither is in the public
 * session object (`amr` is not returned), so neither is read from it.
 */
import type { Row, Store } from '@gatehouse/core'

export interface SessionFacts {
  readonly impersonated: boolean
  readonly amr: readonly string[]
}

/**
 * @example
 * const { impersonated, amr } = await sessionFacts(ctx.db, session.session.token) // { impersonated: false, amr: ['pwd', 'otp', 'mfa'] }
 */
export async function sessionFacts(db: Store, sessionToken: string): Promise<SessionFacts> {
  const row = await db.findOne<Row>({ model: 'session', where: { field: 'token', value: sessionToken } })
  const impersonatedBy = row?.impersonatedBy
  const amr = row?.amr
  return {
    impersonated: typeof impersonatedBy === 'string' && impersonatedBy !== '',
    amr: typeof amr === 'string' ? amr.split(' ').filter(Boolean) : [],
  }
}
