/**
 * @module
 * The provider's side of core's `onCredentialsRevoked`
 * (docs/oidc-provider.md#grants-end-with-the-accounts-credentials): when core
 * ends a user's sign-ins for the account's security (a password reset, a
 * password change that signs out the other sessions, sign-out everywhere, a
 * ban, the user's deletion, a first proof of the mailbox), every access and
 * refresh token of that user, for every client, ends with them, in the same
 * transaction. A refresh token that outlived a reset would give whoever
 * stole the account before it a way back in.
 *
 * After a first proof of the mailbox the consents go too: they were given by
 * whoever held the account before the owner proved the address.
 */
import type { CredentialsRevoked } from '@gatehouse/core'
import { lockUser } from './tokens.js'

/**
 * @example
 * definePlugin({ id: 'oidc-provider', onCredentialsRevoked: endGrants })
 */
export async function endGrants(event: CredentialsRevoked): Promise<void> {
  const { db, userId } = event
  // The lock every grant takes first (tokens.ts): a refresh or code exchange running now commits before
  // this delete reads the table, or waits and then finds nothing to refresh.
  await lockUser(db, userId)
  await db.deleteMany({ model: 'oauthAccessToken', where: { field: 'userId', value: userId } })
  if (event.reason === 'email-proven') await db.deleteMany({ model: 'oauthConsent', where: { field: 'userId', value: userId } })
}
