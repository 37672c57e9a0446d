/**
 * @module
 * What goes with a provider (docs/sso.md#deleting-a-provider): the accounts
 * linked to it, the sessions signed in through it (`session.ssoProviderId`),
 * its domain verification tokens, then its row. Used by delete-provider and
 * when the provider's organization is deleted (the foreign key would cascade
 * to the provider row alone, leaving its accounts and sessions behind).
 *
 * Why the sessions too: an organization deletes a provider when it stops
 * trusting it (a compromised IdP, a tenant handed back); a session it issued
 * would otherwise outlive that decision for the whole session lifetime. Only
 * those sessions end: the users' sessions of other sign-ins stay, and the
 * users stay. Sessions go through core's `deleteSessions`, so their copies in
 * secondary storage go too; if that storage is down the deletion answers
 * 503 and nothing is deleted.
 *
 * A session created later cannot name a deleted provider either
 * ({@link providerSessionGuard}): the sign-in checks its provider under a
 * lock, but with the provider's two-factor policy `require` the session is
 * created minutes later, by the second step.
 */
import { AuthError, deleteSessions, type AuthContext, type DatabaseHookContext, type Row, type Store } from '@gatehouse/core'
import { deleteChallenges } from '../domains/challenge-token.js'
import { SsoErrors } from '../errors.js'
import type { ProviderRow } from '../schema.js'

/**
 * Removes the provider and what it issued, through `tx` (a transaction).
 *
 * @example
 * await ctx.db.transaction((tx) => removeProvider(ctx.auth, tx, row))
 */
export async function removeProvider(auth: AuthContext, tx: Store, provider: Pick<ProviderRow, 'id' | 'providerId'>): Promise<void> {
  await tx.deleteMany({ model: 'account', where: { field: 'providerId', value: provider.providerId } })
  const sessions = await tx.findMany<Row & { token: string }>({ model: 'session', where: { field: 'ssoProviderId', value: provider.providerId } })
  await deleteSessions(auth, sessions.map((session) => session.token), tx)
  await deleteChallenges(tx, provider.providerId)
  await tx.delete({ model: 'ssoProvider', where: { field: 'id', value: provider.id } })
}

/**
 * The database hook before an organization row is deleted: its providers go
 * first, in the same transaction (the hook's store).
 *
 * @example
 * databaseHooks: { organization: { delete: { before: organizationDeletionHook(authFor) } } }
 */
export function organizationDeletionHook(authFor: (ctx: DatabaseHookContext) => AuthContext | undefined) {
  return async (row: Row, ctx: DatabaseHookContext): Promise<void> => {
    const auth = authFor(ctx)
    if (!auth) return
    const db = ctx.db ?? auth.db
    const providers = await db.findMany<ProviderRow & Row>({ model: 'ssoProvider', where: { field: 'organizationId', value: String(row.id) } })
    for (const provider of providers) {
      // The lock a session naming the provider is created under (providerSessionGuard): a session committing
      // now is waited for and then collected, never left behind by the deletion.
      const locked = await db.lock<ProviderRow & Row>({ model: 'ssoProvider', where: { field: 'id', value: provider.id } })
      if (locked) await removeProvider(auth, db, locked)
    }
  }
}

/**
 * The database hook before a session row is created: a session naming a
 * provider (`ssoProviderId`) only while that provider exists, read under a
 * lock of its row in the session's transaction. A deletion holds the same
 * lock while it collects the provider's sessions, so either it sees this
 * session and ends it, or this sees no provider and refuses (401
 * `SSO_PROVIDER_GONE`). It matters for the second step of a sign-in
 * (two-factor, docs/sso.md#two-factor): the code may come minutes after the
 * IdP's answer, and the organization may have deleted the provider since,
 * having stopped trusting it. The SSO sign-in itself already holds that lock.
 *
 * @example
 * databaseHooks: { session: { create: { before: providerSessionGuard(authFor) } } }
 */
export function providerSessionGuard(authFor: (ctx: DatabaseHookContext) => AuthContext | undefined) {
  return async (data: Row, ctx: DatabaseHookContext): Promise<void> => {
    const providerId = data.ssoProviderId
    if (typeof providerId !== 'string') return
    const db = ctx.db ?? authFor(ctx)?.db
    if (!db) return
    const provider = await db.lock({ model: 'ssoProvider', where: { field: 'providerId', value: providerId } })
    if (!provider) throw new AuthError(SsoErrors.SSO_PROVIDER_GONE)
  }
}
