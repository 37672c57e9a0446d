/**
 * @module
 * The auto sign-in a verification link still owes while its confirmation
 * page waits (docs/accounts.md#email-verification). A verification link is
 * valid for an hour and not single-use, yet signs in at most once: on the
 * unverified-to-verified transition. When that transition happens on a GET
 * whose browser holds another user's session, the sign-in is parked here
 * (verification table, "verify-email-sign-in:" and the token's SHA-256,
 * value the user id) and the POST of the confirmation page takes it, once.
 */
import { sha256Base64url } from '../../crypto/keys.js'
import type { Row } from '../../db/adapter.js'
import type { AuthContext } from '../../endpoint/context.js'
import { DEFAULT_EMAIL_TOKEN_SECONDS } from '../../verification/send-verification-email.js'

type Ctx = Pick<AuthContext, 'db' | 'clock' | 'options'>

function identifier(token: string): string {
  return `verify-email-sign-in:${sha256Base64url(token)}`
}

/** Parks the sign-in of `userId` owed by `token`, for no longer than a token lives. */
export async function parkSignIn(ctx: Ctx, token: string, userId: string): Promise<void> {
  const seconds = ctx.options.emailVerification?.expiresIn ?? DEFAULT_EMAIL_TOKEN_SECONDS
  await ctx.db.create({
    model: 'verification',
    data: { identifier: identifier(token), value: userId, expiresAt: new Date(ctx.clock.now().getTime() + seconds * 1000) },
  })
}

/** Whether `token` had a parked sign-in of `userId`; consumes it (one winner among parallel posts). */
export async function takeParkedSignIn(ctx: Ctx, token: string, userId: string): Promise<boolean> {
  const row = await ctx.db.consume<Row & { value: string; expiresAt: Date }>({
    model: 'verification',
    where: { field: 'identifier', value: identifier(token) },
  })
  return row !== null && row.value === userId && row.expiresAt.getTime() > ctx.clock.now().getTime()
}
