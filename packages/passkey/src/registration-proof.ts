/**
 * @module
 * What registering a passkey takes besides a fresh session
 * (docs/passkeys.md#registering-a-passkey). A passkey is a lasting way in, so
 * whoever holds a session (a stolen cookie, a script injected into the app)
 * must not plant one with the session alone:
 *
 * - an account with a second factor on (another plugin's `secondFactor`,
 *   second-factor.ts): this session passed it recently (two-factor: a TOTP
 *   or backup code in the last 10 minutes, never an emailed code). The
 *   password is not enough: it is the factor the second one distrusts, and
 *   the mailbox resets it. A passkey with user verification skips the second
 *   step, so planting one must pass it.
 * - else an account with a password: the password, `password` in the body.
 * - else (a magic-link or social account with no second factor): the fresh
 *   session, as before; such an account has no other secret to ask for.
 */
import { AuthError, CoreErrors, type EndpointContext, type Row, type SessionWithUser } from '@gatehouse/core'
import { PasskeyErrors } from './errors.js'
import { enrolledSources } from './second-factor.js'

/**
 * Whether this session may register a passkey now. `password` is undefined when the caller cannot
 * carry one (the GET options request): then only the second factor is checked, early, and the
 * password waits for verify-registration.
 *
 * @throws AuthError `SECOND_FACTOR_REQUIRED` (403), `PASSWORD_REQUIRED` (403), core's `INVALID_PASSWORD` (400).
 * @example
 * await requireRegistrationProof(ctx, ctx.session, ctx.body.password ?? null)
 */
export async function requireRegistrationProof(ctx: EndpointContext, session: SessionWithUser, password: string | null | undefined): Promise<void> {
  const userId = session.user.id
  const enrolled = await enrolledSources(ctx.auth.plugins, ctx.db, userId)
  if (enrolled.length > 0) {
    for (const source of enrolled) if (await source.proven(ctx, session.session.id)) return
    throw new AuthError(PasskeyErrors.SECOND_FACTOR_REQUIRED)
  }
  if (password === undefined) return
  const account = await ctx.db.findOne<{ password?: string | null } & Row>({
    model: 'account',
    where: [
      { field: 'userId', value: userId },
      { field: 'providerId', value: 'credential' },
    ],
  })
  if (!account?.password) return
  if (!password) throw new AuthError(PasskeyErrors.PASSWORD_REQUIRED)
  if (!(await ctx.auth.passwords.verify(account.password, password))) throw new AuthError(CoreErrors.INVALID_PASSWORD)
}
