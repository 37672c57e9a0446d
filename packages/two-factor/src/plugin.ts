/**
 * @module
 * `twoFactor(options)`: the plugin object (docs/two-factor.md). It adds the
 * `twoFactorEnabled` user field, the `twoFactorVerifiedAt` session field and
 * its two tables, the `/two-factor/*`
 * routes, core's `signInChallenge` hook (a password sign-in of a user with
 * two-factor on answers `{ twoFactorRedirect: true }` and creates no
 * session), core's `mayAutoSignIn` hook (a verification link does not sign
 * such a user in: it proves the mailbox, not the second factor), database
 * hooks that revoke trusted devices when the password
 * changes, and rate limits per client address on every route (on top of the
 * per-user lockout of services/guard.ts).
 */
import {
  definePlugin,
  type AuthContext,
  type CredentialsRevoked,
  type DatabaseHookContext,
  type EndpointContext,
  type Row,
  type Store,
  type User,
} from '@gatehouse/core'
import { TwoFactorErrors } from './errors.js'
import { resolveTwoFactorOptions, type TwoFactorOptions } from './options.js'
import { twoFactorEndpoints } from './routes/index.js'
import { twoFactorSchema } from './schema.js'
import { challenged, startPendingSignIn, type FirstFactor } from './services/first-factor.js'
import { hasRecentProof } from './services/proof.js'
import { challenge } from './services/sign-in.js'
import { isEnabled, TRUST_VERSION_LENGTH } from './services/state.js'

const VERIFY_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-otp', '/two-factor/verify-backup-code'])
const PASSWORD_PATHS = new Set([
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/get-totp-uri',
  '/two-factor/generate-backup-codes',
  '/two-factor/enable-otp',
  '/two-factor/disable-otp',
])

/**
 * Core ended the user's sign-ins for the account's security
 * (docs/two-factor.md#pending-sign-ins-end-with-the-accounts-credentials):
 * a new trust version ends every pending sign-in and every trusted device.
 * The second factor itself stays, even after a first proof of the mailbox
 * (`email-proven`): it lets nobody in without the password, which that proof
 * removes, and dropping it would let whoever reads the mailbox skip it.
 */
async function endWithCredentials(event: CredentialsRevoked, auth: AuthContext): Promise<void> {
  await event.db.update({
    model: 'twoFactor',
    where: { field: 'userId', value: event.userId },
    update: { trustVersion: auth.random.string(TRUST_VERSION_LENGTH) },
  })
}

/**
 * @example
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   emailAndPassword: { enabled: true },
 *   plugins: [twoFactor({ otpOptions: { sendOTP: ({ user, otp }) => mailer.queue(user.email, 'Your code', otp) } })],
 * })
 */
export function twoFactor(options: TwoFactorOptions = {}) {
  const resolved = resolveTwoFactorOptions(options)
  let initialized: AuthContext | undefined
  /**
   * A credential account updated (password changed, reset or set, by the
   * user or an admin): a new trust version, so every "trust this device"
   * cookie of the user stops working (docs/two-factor.md#trusted-devices).
   */
  const revokeTrust = async (row: Row, ctx: DatabaseHookContext) => {
    if (row.providerId !== 'credential' || typeof row.userId !== 'string') return
    const auth = (ctx.endpoint as { auth?: AuthContext } | undefined)?.auth ?? initialized
    if (!auth) return
    await auth.db.update({
      model: 'twoFactor',
      where: { field: 'userId', value: row.userId },
      update: { trustVersion: auth.random.string(TRUST_VERSION_LENGTH) },
    })
  }
  return definePlugin({
    id: 'two-factor',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'twoFactorClient', from: '@gatehouse/two-factor/client' },
    schema: twoFactorSchema,
    endpoints: twoFactorEndpoints(resolved),
    errors: TwoFactorErrors,
    init: (ctx: AuthContext) => {
      initialized = ctx
    },
    signInChallenge: challenge(resolved),
    // docs/two-factor.md#which-sign-ins-are-challenged: the link verifies the address; the user signs in with both factors.
    mayAutoSignIn: (_ctx: EndpointContext, user: User) => !isEnabled(user),
    onCredentialsRevoked: endWithCredentials,
    /**
     * What this plugin tells other plugins about the second factor, without their importing it
     * (docs/two-factor.md#for-other-plugins): whether a user has it on, and whether a session passed it
     * with a TOTP or backup code within `proofMaxAge`. The passkey plugin asks before it registers a
     * passkey, which skips the second step, and when a reset ends a two-factor account's passkeys.
     * A plugin with a first factor of its own (SSO) asks whether a sign-in from this browser takes the
     * second step, and starts it instead of creating the session (services/first-factor.ts).
     */
    secondFactor: {
      enrolled: async (db: Store, userId: string): Promise<boolean> => {
        const user = await db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: userId } })
        return user !== null && isEnabled(user)
      },
      proven: (ctx: EndpointContext, sessionId: string): Promise<boolean> => hasRecentProof(ctx, resolved, ctx.db, sessionId),
      challenged: (ctx: EndpointContext, db: Store, userId: string): Promise<boolean> => challenged(ctx, db, userId),
      startPendingSignIn: (ctx: EndpointContext, user: User, first: FirstFactor): Promise<void> =>
        startPendingSignIn(ctx, resolved.pendingMaxAge, user, first),
    },
    databaseHooks: {
      // Only updates: a credential account created later (set-password) belongs to a user who had no
      // password, and two-factor needs one to be turned on, so there is no trust to revoke.
      account: { update: { after: revokeTrust } },
    },
    rateLimit: [
      // Per address; the per-user lockout (5 wrong codes) holds however many addresses guess.
      { pathMatcher: (path: string) => VERIFY_PATHS.has(path), window: 60, max: 10 },
      // Each call mails: as strict as core's other mail-sending routes.
      { pathMatcher: (path: string) => path === '/two-factor/send-otp', window: 60, max: 3 },
      // Each call checks the password.
      { pathMatcher: (path: string) => PASSWORD_PATHS.has(path), window: 60, max: 5 },
    ],
  })
}
