/**
 * @module
 * Transparent rehash at sign-in (docs/passwords.md#raising-the-cost): once a
 * password has been verified, a stored hash that costs less than the
 * configured `emailAndPassword.password.scrypt` is replaced by a new one. It
 * is the only moment the plain password is known, so raising the cost
 * reaches every active user without a reset, and a leaked table holds fewer
 * cheap hashes as time goes on.
 */
import type { AuthContext } from '../types/contract.js'
import type { Account } from './users.js'

/**
 * Hashes `password` again with the configured parameters when the account's
 * stored hash is weaker. The write is a compare-and-set on the hash that was
 * verified: a reset or password change that committed in between is never
 * overwritten by the old password's new hash. Never throws: a failure leaves
 * the old hash, which still verifies, and is tried again at the next sign-in.
 * The password has passed `verifyOrDummy`, so its length is within
 * `maxPasswordLength` (docs/passwords.md#bounded-input), and the hash waits
 * for the scrypt limiter like any other.
 *
 * @example
 * const valid = await auth.passwords.verifyOrDummy(account?.password, body.password)
 * if (!user || !account?.password || !valid) throw new AuthError(CoreErrors.INVALID_EMAIL_OR_PASSWORD)
 * await rehashWeakPassword(auth, account, body.password)
 */
export async function rehashWeakPassword(
  auth: Pick<AuthContext, 'db' | 'passwords' | 'logger'>,
  account: Pick<Account, 'id' | 'password'>,
  password: string,
): Promise<void> {
  const stored = account.password
  if (!stored || !auth.passwords.needsRehash(stored)) return
  try {
    const hash = await auth.passwords.hash(password)
    await auth.db.update({
      model: 'account',
      where: [
        { field: 'id', value: account.id },
        { field: 'password', value: stored },
      ],
      update: { password: hash },
    })
  } catch (error) {
    auth.logger.warn('password rehash failed: the old hash stays, and is tried again at the next sign-in', {
      message: error instanceof Error ? error.message : String(error),
    })
  }
}
