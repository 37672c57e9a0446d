/**
 * @module
 * The second step after a first factor another plugin checked
 * (docs/two-factor.md#for-other-plugins). The SSO plugin's sign-in through a
 * provider whose policy is `require` ends here instead of in a session: the
 * IdP vouched for the person, and Gatehouse's second factor is still asked.
 *
 * - `challenged` says whether signing the user in from this browser takes the
 *   second step: two-factor on, and no live trust cookie of theirs. A device
 *   the user trusted after passing a code skips the step whatever the first
 *   factor, as it does for the password (docs/two-factor.md#trusted-devices):
 *   the trust cookie stands for "this browser passed the second factor
 *   lately", which does not depend on how the first was proven.
 * - `startPendingSignIn` then sets the pending cookie the password step sets
 *   (services/cookies.ts), naming the first factor's `amr` values and the
 *   session fields its plugin wants on the session. The verify routes complete
 *   it as they complete a password sign-in (services/sign-in.ts), under the
 *   same rules: a revocation of the user's credentials, a new trust version or
 *   two-factor turned off since the first step ends it.
 *
 * The caller's mistakes (a field no plugin declares on the session, a value
 * too long for a cookie) throw: they are bugs, not a user's doing.
 */
import { coreSchema, type EndpointContext, type Row, type Store, type User } from '@gatehouse/core'
import { twoFactorSchema } from '../schema.js'
import { isPendingFieldValue, isTrustedDevice, PENDING_LIMITS, setPendingCookie, type PendingFieldValue } from './cookies.js'
import { SECOND_FACTOR_AMR } from './amr.js'
import { findTwoFactor, isEnabled } from './state.js'

/** How another plugin's first factor signs in, and what its session is to carry. */
export interface FirstFactor {
  /** RFC 8176 values of the first factor, 1 to 4 short lowercase words: `['fed']` for a federated (SSO) sign-in. */
  readonly amr: readonly string[]
  /** Fields the new session gets (at most 4, each declared on the session by a plugin): `{ ssoProviderId: 'acme' }`. */
  readonly sessionFields?: Readonly<Record<string, PendingFieldValue>> | undefined
  /** A persistent session cookie (true, the default) or one that ends with the browser. */
  readonly rememberMe?: boolean | undefined
}

/**
 * Whether signing `userId` in from this browser takes the second step: two-factor on and no live trust
 * cookie of theirs. Reads through `db`, so a caller inside its transaction sees its own writes.
 *
 * @example
 * if (await challenged(ctx, tx, user.id)) // no session: startPendingSignIn once tx committed
 */
export async function challenged(ctx: EndpointContext, db: Store, userId: string): Promise<boolean> {
  const user = await db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: userId } })
  if (!user || !isEnabled(user)) return false
  const row = await findTwoFactor(db, userId)
  return !(row && isTrustedDevice(ctx, userId, row.trustVersion))
}

/**
 * Sets this browser's pending sign-in for `user`, whose first factor the caller checked; the verify
 * routes then create the session (amr: the first factor's values, `otp`, `mfa`; plus `sessionFields`).
 * `user` as the caller read it before checking the first factor: its `credentialVersion` is the one
 * the session is created under, so a revocation since then ends the sign-in. Call it once the
 * caller's own writes committed, when {@link challenged} said true.
 *
 * @example
 * await startPendingSignIn(ctx, options.pendingMaxAge, user, { amr: ['fed'], sessionFields: { ssoProviderId: 'acme' } })
 * return ctx.redirect('/two-factor') // the app's code page posts to /two-factor/verify-totp
 */
export async function startPendingSignIn(ctx: EndpointContext, pendingMaxAge: number, user: User, first: FirstFactor): Promise<void> {
  const firstFactor = checkedAmr(first.amr)
  const sessionFields = checkedFields(ctx, first.sessionFields ?? {})
  const row = await findTwoFactor(ctx.db, user.id)
  // Without a row no second factor can be checked, so this pending sign-in never completes (as for the password).
  const trustVersion = row?.trustVersion ?? ''
  const credentialVersion = (user.credentialVersion as string | null | undefined) ?? null
  setPendingCookie(ctx, { userId: user.id, rememberMe: first.rememberMe !== false, trustVersion, credentialVersion, firstFactor, sessionFields }, pendingMaxAge)
}

function checkedAmr(amr: readonly string[]): readonly string[] {
  if (amr.length === 0 || amr.length > PENDING_LIMITS.amrValues || !amr.every((value) => PENDING_LIMITS.amrValue.test(value))) {
    throw new Error('twoFactor startPendingSignIn: amr must be 1 to 4 RFC 8176 values (short lowercase words)')
  }
  // The second step adds those itself; a first factor claiming them would record a second factor nobody passed.
  if (amr.some((value) => SECOND_FACTOR_AMR.includes(value))) throw new Error('twoFactor startPendingSignIn: the first factor cannot claim otp or mfa')
  return [...amr]
}

/** Only fields a plugin declared on the session: core's own and this plugin's are written by their owners. */
function checkedFields(ctx: EndpointContext, fields: Readonly<Record<string, PendingFieldValue>>): Readonly<Record<string, PendingFieldValue>> {
  const entries = Object.entries(fields)
  if (entries.length > PENDING_LIMITS.fields) throw new Error(`twoFactor startPendingSignIn: at most ${PENDING_LIMITS.fields} session fields`)
  const declared = ctx.auth.schema.session?.fields ?? {}
  for (const [name, value] of entries) {
    const owned = Object.hasOwn(coreSchema.session.fields, name) || Object.hasOwn(twoFactorSchema.session?.fields ?? {}, name)
    if (!PENDING_LIMITS.fieldName.test(name) || owned || !Object.hasOwn(declared, name)) {
      throw new Error(`twoFactor startPendingSignIn: "${name}" is not a session field another plugin declares`)
    }
    if (!isPendingFieldValue(value)) throw new Error(`twoFactor startPendingSignIn: "${name}" must be null, a boolean, a number or a string of at most ${PENDING_LIMITS.stringLength} characters`)
  }
  return Object.fromEntries(entries)
}
