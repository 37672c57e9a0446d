/**
 * @module
 * The routes that take a code without signing in by it
 * (docs/email-otp.md#routes):
 *
 * - POST /email-otp/verify-email `{ email, otp }`: the address becomes
 *   verified (compare-and-set: still this address, still unverified). An
 *   address the account moved onto by change-email, proven from a browser
 *   that is not the account's, ends what the account's holder set up before
 *   (`proveMailbox`), as core's verification link does. The caller's own
 *   session gets the changed user in its cookie cache; with
 *   `autoSignInAfterVerification` a caller without it is signed in, once,
 *   unless a plugin refuses (two-factor: the code proves the mailbox, not
 *   the second factor). Answers `{ status: true, token, user }`.
 * - POST /email-otp/check-verification-otp `{ email, type, otp }`: whether
 *   the code is right, without using it up (a wrong one still counts).
 * - POST /email-otp/reset-password `{ email, otp, password }`: core's reset
 *   (`applyPasswordReset`) in the code's transaction: the password is
 *   replaced or created, the address verified, and every session, grant and
 *   pending sign-in ends unless `revokeSessionsOnPasswordReset` is false.
 *
 * An address without an account answers 400 USER_NOT_FOUND once the code is
 * right: whoever holds a right code has read the mailbox, which tells them
 * nothing new.
 */
import {
  applyPasswordReset,
  AuthError,
  clearEmailMoves,
  CoreErrors,
  createSession,
  defineEndpoint,
  hasUnprovenMove,
  normalizeEmail,
  proveMailbox,
  publicRow,
  refreshUserInStorage,
  reportPasswordReset,
  setCookieCache,
  setSessionCookies,
  signedInUserId,
  optionalSensitiveSessionMiddleware,
  type EndpointContext,
  type Row,
  type Store,
  type User,
} from '@gatehouse/core'
import { z } from 'zod'
import { codeTarget, useCode } from '../codes.js'
import { OTP_TYPES, type ResolvedEmailOTPOptions } from '../options.js'

function userNotFound(): AuthError {
  return new AuthError({ ...CoreErrors.USER_NOT_FOUND, status: 400 })
}

function checkedEmail(raw: string): string {
  const email = normalizeEmail(raw)
  if (!email) throw new AuthError(CoreErrors.INVALID_EMAIL)
  return email
}

async function findByEmail(db: Store, email: string): Promise<(User & Row) | null> {
  return db.findOne<User & Row>({ model: 'user', where: { field: 'email', value: email } })
}

export function verifyEmailOTP(options: ResolvedEmailOTPOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/email-otp/verify-email',
    body: z.lazy(() => z.object({ email: z.string(), otp: z.string() })),
    use: [optionalSensitiveSessionMiddleware],
    handler: async (ctx) => {
      const email = checkedEmail(ctx.body.email)
      const callerId = ctx.session?.user.id ?? null
      const { user, newlyVerified } = await useCode(ctx, options, codeTarget('email-verification', email), ctx.body.otp, async (tx) => {
        const found = await findByEmail(tx, email)
        if (!found) throw userNotFound()
        if (found.emailVerified) return { user: found as User, newlyVerified: false }
        if ((await hasUnprovenMove(tx, found)) && callerId !== found.id) {
          // Proven by someone other than the account's holder: as a reset, whatever the holder set up ends.
          const proven = await proveMailbox(ctx.auth, { user: found, db: tx })
          await clearEmailMoves(tx, found.id)
          return { user: proven ?? found, newlyVerified: proven !== null }
        }
        const updated = await tx.update<User & Row>({
          model: 'user',
          where: [
            { field: 'id', value: found.id },
            { field: 'email', value: email },
            { field: 'emailVerified', value: false },
          ],
          update: { emailVerified: true },
        })
        await clearEmailMoves(tx, found.id)
        return { user: (updated ?? found) as User, newlyVerified: updated !== null }
      })
      if (newlyVerified) await refreshUserInStorage(ctx.auth, user)
      const visible = publicRow(ctx.auth.schema, 'user', user as User & Row)
      if (ctx.session && callerId === user.id) {
        if (newlyVerified) setCookieCache(ctx, { session: ctx.session.session, user: visible })
        return { status: true, token: null as string | null, user: visible }
      }
      if (newlyVerified && ctx.options.emailVerification?.autoSignInAfterVerification && (await pluginsAllowAutoSignIn(ctx, user))) {
        const session = await createSession(ctx.auth, user, { ipAddress: ctx.ip, userAgent: ctx.headers.get('user-agent'), amr: ['email'] })
        setSessionCookies(ctx, session, { dontRemember: false })
        return { status: true, token: session.token as string | null, user: visible }
      }
      return { status: true, token: null as string | null, user: visible }
    },
  })
}

/** Every plugin's `mayAutoSignIn` (docs/plugins.md#the-contract): one refusal and the code signs nobody in. */
async function pluginsAllowAutoSignIn(ctx: EndpointContext, user: User): Promise<boolean> {
  for (const plugin of ctx.auth.plugins) {
    if (plugin.mayAutoSignIn && !(await plugin.mayAutoSignIn(ctx, user))) return false
  }
  return true
}

export function checkVerificationOTP(options: ResolvedEmailOTPOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/email-otp/check-verification-otp',
    body: z.lazy(() => z.object({ email: z.string(), type: z.enum(OTP_TYPES), otp: z.string() })),
    handler: async (ctx) => {
      const email = checkedEmail(ctx.body.email)
      // A change-email code names two addresses; this route knows one, so such a code never checks here.
      await useCode(
        ctx,
        options,
        codeTarget(ctx.body.type, email),
        ctx.body.otp,
        async (tx) => {
          if (!(await findByEmail(tx, email))) throw userNotFound()
        },
        true,
      )
      return { success: true }
    },
  })
}

export function resetPasswordEmailOTP(options: ResolvedEmailOTPOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/email-otp/reset-password',
    body: z.lazy(() => z.object({ email: z.string(), otp: z.string(), password: z.string() })),
    handler: async (ctx) => {
      const { auth } = ctx
      const email = checkedEmail(ctx.body.email)
      auth.passwords.checkLength(ctx.body.password)
      // Hashed before the code is checked, so the check and the reset commit together; the route's limit bounds the cost.
      const hash = await auth.passwords.hash(ctx.body.password)
      const user = await useCode(ctx, options, codeTarget('forget-password', email), ctx.body.otp, async (tx) => {
        const found = await findByEmail(tx, email)
        if (!found) throw userNotFound()
        return applyPasswordReset(auth, { user: found, hash, db: tx })
      })
      await reportPasswordReset(ctx, user)
      return { success: true }
    },
  })
}
