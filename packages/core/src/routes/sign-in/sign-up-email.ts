/**
 * @module
 * POST /sign-up/email (docs/sessions.md#signing-up-in-and-out). The user and its
 * credential account are created in one transaction; the unique email index
 * decides races, so 20 concurrent sign-ups with one email leave exactly one
 * user and one account and the others get 422 "User already exists".
 */
import { z } from 'zod'
import { pickAdditionalFields } from '../../accounts/additional-fields.js'
import { normalizeEmail } from '../../accounts/email.js'
import { CREDENTIAL_PROVIDER } from '../../accounts/users.js'
import { isUniqueViolation, type Row } from '../../db/adapter.js'
import { publicRow } from '../../db/output.js'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { setSessionCookies } from '../../session/session-cookies.js'
import { createSession } from '../../session/session-store.js'
import type { User } from '../../session/types.js'
import { canSendVerificationEmail, sendVerificationEmail } from '../../verification/send-verification-email.js'

export const signUpEmail = defineEndpoint({
  method: 'POST',
  path: '/sign-up/email',
  body: z
    .object({
      name: z.string(),
      email: z.string(),
      password: z.string(),
      image: z.string().optional(),
      callbackURL: z.string().optional(),
      rememberMe: z.boolean().optional(),
    })
    .loose(),
  handler: async (ctx) => {
    const { body, options, auth } = ctx
    const settings = options.emailAndPassword
    if (!settings?.enabled || settings.disableSignUp) throw new AuthError(CoreErrors.EMAIL_PASSWORD_SIGN_UP_DISABLED)
    const email = normalizeEmail(body.email)
    if (!email) throw new AuthError(CoreErrors.INVALID_EMAIL)
    auth.passwords.checkLength(body.password)
    const extra = pickAdditionalFields(options.user?.additionalFields, body, 'create')
    const hash = await auth.passwords.hash(body.password)

    let user: User
    try {
      user = await ctx.db.transaction(async (tx) => {
        const created = await tx.create<User & Row>({
          model: 'user',
          data: { ...extra, name: body.name, email, image: body.image ?? null, emailVerified: false },
        })
        await tx.create({
          model: 'account',
          data: { providerId: CREDENTIAL_PROVIDER, accountId: created.id, userId: created.id, password: hash },
        })
        return created
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw new AuthError(CoreErrors.USER_ALREADY_EXISTS)
      throw error
    }

    const verification = options.emailVerification
    const requireVerification = settings.requireEmailVerification === true
    if ((verification?.sendOnSignUp || requireVerification) && canSendVerificationEmail(ctx)) {
      try {
        await sendVerificationEmail(ctx, user, { callbackURL: body.callbackURL })
      } catch (error) {
        // No half-done sign-up: without its mail the account could never be verified.
        await ctx.db.delete({ model: 'user', where: { field: 'id', value: user.id } })
        throw error
      }
    }

    const visible = publicRow(auth.schema, 'user', user)
    if (settings.autoSignIn === false || requireVerification) return { token: null, user: visible }
    const session = await createSession(auth, user, {
      ipAddress: ctx.ip,
      userAgent: ctx.headers.get('user-agent'),
    })
    setSessionCookies(ctx, session, { dontRemember: body.rememberMe === false })
    return { token: session.token as string | null, user: visible }
  },
})
