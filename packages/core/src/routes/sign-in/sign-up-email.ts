/**
 * @module
 * POST /sign-up/email (docs/sessions.md#signing-up-in-and-out). The user, its
 * credential account and (with auto sign-in) its session are created in one
 * transaction, so a fault anywhere leaves nothing and a retry succeeds.
 * Database `after` hooks and the secondary storage copy run only after the
 * commit. The unique email index decides races, so 20 concurrent sign-ups
 * with one email leave exactly one user and one account and the others get
 * 422 "User already exists"; with `emailAndPassword.preventEnumeration` they get
 * the answer of a new sign-up instead, and the owner is told
 * (taken-address.ts, docs/security.md#account-enumeration-at-sign-up).
 *
 * `name`, `image` and string additional fields are capped in length
 * (docs/accounts.md#input-limits): the user row is copied into every
 * session's secondary-storage entry and cookie cache.
 */
import { z } from 'zod'
import { pickAdditionalFields } from '../../accounts/additional-fields.js'
import { normalizeEmail } from '../../accounts/email.js'
import { pluginUserInput } from '../../accounts/plugin-user-input.js'
import { signUpAnswerUser } from '../../accounts/stand-in-user.js'
import { CREDENTIAL_PROVIDER } from '../../accounts/users.js'
import { isUniqueViolation, type Row } from '../../db/adapter.js'
import { publicRow } from '../../db/output.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { MAX_IMAGE_LENGTH, MAX_NAME_LENGTH } from '../../endpoint/input-limits.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { setSessionCookies } from '../../session/session-cookies.js'
import { createSession, mirrorSession, type CreatedSession } from '../../session/session-store.js'
import type { User } from '../../types/rows.js'
import { canSendVerificationEmail, sendVerificationEmail } from '../../verification/send-verification-email.js'
import { answerTakenAddress } from './taken-address.js'

export const signUpEmail = defineEndpoint({
  method: 'POST',
  path: '/sign-up/email',
  body: z.lazy(() =>
    z
      .object({
        name: z.string().max(MAX_NAME_LENGTH),
        email: z.string(),
        password: z.string(),
        image: z.string().max(MAX_IMAGE_LENGTH).optional(),
        callbackURL: z.string().optional(),
        rememberMe: z.boolean().optional(),
      })
      .loose(),
  ),
  handler: async (ctx) => {
    const { body, options, auth } = ctx
    const settings = options.emailAndPassword
    if (!settings?.enabled || settings.disableSignUp) throw new AuthError(CoreErrors.EMAIL_PASSWORD_SIGN_UP_DISABLED)
    const email = normalizeEmail(body.email)
    if (!email) throw new AuthError(CoreErrors.INVALID_EMAIL)
    auth.passwords.checkLength(body.password)
    const extra = pickAdditionalFields(options.user?.additionalFields, body, 'create')
    const userData = { ...extra, ...(await pluginUserInput(ctx, body, null)), name: body.name, email, image: body.image ?? null, emailVerified: false }
    // Hashed before the address is known to be free: a taken one costs the same work (docs/passwords.md#same-cost-for-unknown-users).
    const hash = await auth.passwords.hash(body.password)

    const requireVerification = settings.requireEmailVerification === true
    const signIn = settings.autoSignIn !== false && !requireVerification
    let created: { user: User; session: CreatedSession | null }
    try {
      // User, account and session commit together (docs/sessions.md#signing-up-in-and-out): a fault
      // between them would leave a user without a session, and the client's retry would get 422.
      created = await ctx.db.transaction(async (tx) => {
        const user = await tx.create<User & Row>({
          model: 'user',
          data: userData,
        })
        await tx.create({
          model: 'account',
          data: { providerId: CREDENTIAL_PROVIDER, accountId: user.id, userId: user.id, password: hash },
        })
        const session = signIn
          ? await createSession(auth, user, { ipAddress: ctx.ip, userAgent: ctx.headers.get('user-agent'), db: tx, mirror: false, amr: ['pwd'] })
          : null
        return { user, session }
      })
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      // A plugin's unique field (a username) taken by a request that won the race: the plugin names it.
      await pluginUserInput(ctx, body, null)
      // Prevents account enumeration: the same answer as a new address (docs/security.md#account-enumeration-at-sign-up).
      if (settings.preventEnumeration) return answerTakenAddress(ctx, email, userData)
      throw new AuthError(CoreErrors.USER_ALREADY_EXISTS)
    }
    const { user, session } = created

    const verification = options.emailVerification
    if ((verification?.sendOnSignUp || requireVerification) && canSendVerificationEmail(ctx)) {
      try {
        await sendVerificationEmail(ctx, user, { callbackURL: body.callbackURL })
      } catch (error) {
        // No half-done sign-up: without its mail the account could never be verified.
        // The account and the session go with the user (on delete cascade).
        await ctx.db.delete({ model: 'user', where: { field: 'id', value: user.id } })
        throw error
      }
    }

    const visible = settings.preventEnumeration ? signUpAnswerUser(auth, user) : publicRow(auth.schema, 'user', user)
    if (!session) return { token: null, user: visible }
    // Only now, committed and kept: secondary storage never holds a session the database lacks.
    await mirrorSession(auth, session)
    setSessionCookies(ctx, session, { dontRemember: body.rememberMe === false })
    return { token: session.token as string | null, user: visible }
  },
})
