/**
 * @module
 * What a proof of the mailbox does to an account whose address was not yet
 * verified (docs/security.md#pre-registration-whoever-proves-the-mailbox-owns-the-account).
 *
 * The attack: someone signs up with another person's address and any
 * password, keeps that session, links their own provider account or adds a
 * second factor. When the real owner later proves the mailbox (a magic link,
 * a password-reset link, a provider that vouches for the address) and uses
 * the account, everything the first registrant set up would still let them
 * in. So the first proof of the mailbox makes the prover the only owner:
 * the address becomes verified, every earlier session and grant ends
 * (`revokeUserCredentials`, reason `email-proven`, which plugins hear too),
 * and every way in that was added before the proof goes: the password and
 * the linked provider accounts, except the one making the proof. The owner
 * sets a password again by reset and links providers again.
 */
import type { Row } from '../db/adapter.js'
import type { Store } from '../db/store.js'
import type { AuthContext } from '../endpoint/context.js'
import type { User } from '../types/rows.js'
import { revokeUserCredentials } from './revoke-credentials.js'

export interface MailboxProof {
  /** The user as read inside `db`; a verified user is returned unchanged. */
  readonly user: User
  /** The transaction that also signs the prover in. */
  readonly db: Store
  /** The provider account that made the proof (a social sign-in): it stays linked. */
  readonly keepAccount?: { readonly providerId: string; readonly accountId: string }
}

/**
 * Marks the address verified and removes whatever was set up before the
 * proof; null when the user's address changed under us (the proof was for
 * the old one, so nothing is verified).
 *
 * @example
 * const user = await proveMailbox(ctx.auth, { user: found, db: tx })
 * if (!user) throw new Refusal('invalid_token')
 */
export async function proveMailbox(auth: AuthContext, proof: MailboxProof): Promise<User | null> {
  const { user, db, keepAccount } = proof
  if (user.emailVerified) return user
  // Compare-and-set on the address: a proof of the old address never verifies a new one.
  const verified = await db.update<User & Row>({
    model: 'user',
    where: [
      { field: 'id', value: user.id },
      { field: 'email', value: user.email },
    ],
    update: { emailVerified: true },
  })
  if (!verified) return null
  const accounts = await db.findMany<{ id: string; providerId: string; accountId: string } & Row>({
    model: 'account',
    where: { field: 'userId', value: user.id },
  })
  const earlier = accounts.filter((account) => !(keepAccount && account.providerId === keepAccount.providerId && account.accountId === keepAccount.accountId))
  if (earlier.length > 0) await db.deleteMany({ model: 'account', where: { field: 'id', operator: 'in', value: earlier.map((account) => account.id) } })
  await revokeUserCredentials(auth, { userId: user.id, reason: 'email-proven', db })
  // Read again: a plugin may have changed the user's fields (two-factor turned off).
  return (await db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: user.id } })) ?? verified
}
