/**
 * @module
 * What POST /sign-up/email answers for an address that already has an
 * account when `emailAndPassword.preventEnumeration` is on
 * (docs/security.md#account-enumeration-at-sign-up): the answer of a new
 * sign-up that signs nobody in, `{ token: null, user }` with a stand-in user
 * that is never stored, and the same cookie a new sign-up's verification
 * mail leaves. The password was hashed already, as for a new account, so
 * the work matches too. The owner is told through
 * `emailAndPassword.onExistingUserSignUp`, whose failure is logged and never
 * answered: a 500 here and a 200 for a new address would tell them apart.
 */
import { findUserByEmail } from '../../accounts/users.js'
import { signUpAnswerUser, standInUser } from '../../accounts/stand-in-user.js'
import type { Row } from '../../db/adapter.js'
import type { EndpointContext } from '../../endpoint/context.js'
import { bindLinkToBrowser } from '../../session/link-binding.js'
import type { User } from '../../types/rows.js'
import { canSendVerificationEmail, DEFAULT_EMAIL_TOKEN_SECONDS } from '../../verification/send-verification-email.js'

/**
 * @example
 * if (isUniqueViolation(error) && settings.preventEnumeration) return answerTakenAddress(ctx, email, data)
 */
export async function answerTakenAddress(ctx: EndpointContext, email: string, data: Row): Promise<{ token: null; user: User }> {
  const owner = await findUserByEmail(ctx.db, email)
  const notify = ctx.options.emailAndPassword?.onExistingUserSignUp
  if (owner && notify) {
    try {
      await notify({ user: owner }, { request: ctx.request })
    } catch (error) {
      ctx.logger.error('mail callback failed', { kind: 'existing-user-sign-up', error: error instanceof Error ? error.name : typeof error })
    }
  }
  // A new sign-up's verification mail binds this browser to the address (docs/security.md#login-csrf): the same cookie here.
  if (canSendVerificationEmail(ctx)) bindLinkToBrowser(ctx, email, ctx.options.emailVerification?.expiresIn ?? DEFAULT_EMAIL_TOKEN_SECONDS)
  return { token: null, user: signUpAnswerUser(ctx.auth, standInUser(ctx.auth, data)) }
}
