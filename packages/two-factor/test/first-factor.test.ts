/**
 * The second step after another plugin's first factor (services/first-factor.ts,
 * docs/two-factor.md#for-other-plugins), driven by a test plugin that plays a
 * federated sign-in as the SSO plugin does: it finds this plugin among the
 * auth's plugins, asks `challenged`, and either starts the pending sign-in and
 * redirects to the code page, or signs in directly. Covered: the pending
 * cookie and nothing else, the session the code creates (amr of the first
 * factor plus `otp mfa`, the asked fields), trusted devices, what ends such a
 * pending sign-in, and the caller's mistakes.
 */
import { createSession, defineEndpoint, definePlugin, setSessionCookies, type EndpointContext, type Row, type Store, type User } from '@gatehouse/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { FirstFactor } from '../src/services/first-factor.js'
import { appCode, cookieNamed, enroll, getSession, PASSWORD, passwordStep, post, rows, twoFactorAuth, type TwoFactorAuth } from './fixtures.js'

interface SecondStep {
  challenged(ctx: EndpointContext, db: Store, userId: string): Promise<boolean>
  startPendingSignIn(ctx: EndpointContext, user: User, first: FirstFactor): Promise<void>
}

/** Found as another plugin finds it: among the auth's plugins, never imported. */
function secondStepOf(ctx: EndpointContext): SecondStep {
  const plugin = ctx.auth.plugins.find((candidate) => candidate.id === 'two-factor') as { secondFactor?: SecondStep } | undefined
  if (!plugin?.secondFactor) throw new Error('no two-factor plugin')
  return plugin.secondFactor
}

const federated = definePlugin({
  id: 'federated-test',
  schema: { session: { fields: { viaProvider: { type: 'string', required: false } } } },
  endpoints: {
    federatedSignIn: defineEndpoint({
      method: 'POST',
      path: '/federated-test/sign-in',
      body: z.object({
        email: z.string(),
        amr: z.array(z.string()).optional(),
        sessionFields: z.record(z.string(), z.unknown()).optional(),
        rememberMe: z.boolean().optional(),
      }),
      handler: async (ctx) => {
        const user = await ctx.db.findOne<User & Row>({ model: 'user', where: { field: 'email', value: ctx.body.email } })
        if (!user) throw new Error('no such user')
        const step = secondStepOf(ctx)
        if (await step.challenged(ctx, ctx.db, user.id)) {
          try {
            const sessionFields = (ctx.body.sessionFields ?? { viaProvider: 'idp' }) as FirstFactor['sessionFields']
            await step.startPendingSignIn(ctx, user, { amr: ctx.body.amr ?? ['fed'], sessionFields, rememberMe: ctx.body.rememberMe })
          } catch (error) {
            return { thrown: (error as Error).message }
          }
          return ctx.redirect('/two-factor?callbackURL=%2Fhome')
        }
        const session = await createSession(ctx.auth, user, { amr: ['fed'], fields: { viaProvider: 'idp' } })
        setSessionCookies(ctx, session, { dontRemember: false })
        return ctx.redirect('/home')
      },
    }),
  },
})

function federatedAuth(): TwoFactorAuth {
  return twoFactorAuth({}, {}, [federated])
}

function federatedStep(auth: TwoFactorAuth, email: string, extra: Record<string, unknown> = {}, cookie = '') {
  return post(auth, '/federated-test/sign-in', { email, ...extra }, cookie)
}

describe('a first factor of another plugin, then the code', () => {
  it('a user with two-factor on gets only the pending cookie; the code creates the session with amr "fed otp mfa" and the asked fields', async () => {
    const auth = federatedAuth()
    const user = await enroll(auth)
    const before = (await rows(auth, 'session', user.userId)).length
    const started = await federatedStep(auth, user.email)
    expect(started.status).toBe(302)
    expect(started.setCookies).toHaveLength(1)
    expect(cookieNamed(started.setCookies, 'two_factor')).toMatch(/Max-Age=600; Path=\/; HttpOnly; SameSite=Lax/)
    expect(await rows(auth, 'session', user.userId)).toHaveLength(before)
    expect(await getSession(auth, started.cookie)).toBeNull()

    const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, started.cookie)
    expect(verified).toMatchObject({ status: 200, body: { status: true, token: expect.any(String), user: { id: user.userId } } })
    // No remember-me choice was given: a persistent session cookie.
    expect(cookieNamed(verified.setCookies, 'session_token')).toMatch(/Max-Age=\d+/)
    expect(cookieNamed(verified.setCookies, 'two_factor')).toMatch(/Max-Age=0/)
    const made = (await rows(auth, 'session', user.userId)).slice(before)
    expect(made).toMatchObject([{ amr: 'fed otp mfa', viaProvider: 'idp', twoFactorMethod: 'totp' }])
    expect((await getSession(auth, verified.cookie)).user).toMatchObject({ id: user.userId })
  })

  it('rememberMe: false gives a browser-session cookie; a backup code completes it too', async () => {
    const auth = federatedAuth()
    const user = await enroll(auth)
    const started = await federatedStep(auth, user.email, { rememberMe: false })
    const verified = await post(auth, '/two-factor/verify-backup-code', { code: user.backupCodes[0] }, started.cookie)
    expect(verified.status).toBe(200)
    expect(cookieNamed(verified.setCookies, 'session_token')).not.toMatch(/Max-Age/)
    expect((await rows(auth, 'session', user.userId)).at(-1)).toMatchObject({ amr: 'fed otp mfa', twoFactorMethod: 'backup-code' })
  })

  it('a password sign-in is unchanged: amr "pwd otp mfa", no fields of the other plugin', async () => {
    const auth = federatedAuth()
    const user = await enroll(auth)
    const pending = await passwordStep(auth, user.email)
    await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, pending.cookie)
    expect((await rows(auth, 'session', user.userId)).at(-1)).toMatchObject({ amr: 'pwd otp mfa', viaProvider: null })
  })

  it('a user without two-factor is not challenged', async () => {
    const auth = federatedAuth()
    await post(auth, '/sign-up/email', { email: 'bo@example.com', password: PASSWORD, name: 'Bo' })
    const direct = await federatedStep(auth, 'bo@example.com')
    expect(direct.status).toBe(302)
    expect(cookieNamed(direct.setCookies, 'two_factor')).toBeUndefined()
    expect(cookieNamed(direct.setCookies, 'session_token')).toBeDefined()
  })

  it("a live trust cookie skips the step, as for the password; the session then claims no second factor", async () => {
    const auth = federatedAuth()
    const user = await enroll(auth)
    const pending = await passwordStep(auth, user.email)
    const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()), trustDevice: true }, pending.cookie)
    const trust = verified.cookie.split('; ').find((pair) => pair.startsWith('gatehouse.trust_device=')) as string
    const direct = await federatedStep(auth, user.email, {}, trust)
    expect(cookieNamed(direct.setCookies, 'two_factor')).toBeUndefined()
    expect((await rows(auth, 'session', user.userId)).at(-1)).toMatchObject({ amr: 'fed', viaProvider: 'idp', twoFactorMethod: null })
  })
})

describe('what ends it, as it ends a password sign-in', () => {
  it('sign-out everywhere or a password reset between the first step and the code: NO_PENDING_SIGN_IN; two-factor turned off: no code to check', async () => {
    for (const end of ['revoke-sessions', 'reset', 'disable'] as const) {
      const auth = federatedAuth()
      const user = await enroll(auth)
      const started = await federatedStep(auth, user.email)
      if (end === 'revoke-sessions') expect((await post(auth, '/revoke-sessions', {}, user.cookie)).status).toBe(200)
      if (end === 'reset') {
        await post(auth, '/request-password-reset', { email: user.email })
        const token = auth.mailbox.last('reset-password')?.token as string
        expect((await post(auth, '/reset-password', { token, newPassword: 'a brand new password' })).status).toBe(200)
      }
      if (end === 'disable') {
        const code = appCode(user.secret, auth.clock.now())
        expect((await post(auth, '/two-factor/disable', { password: PASSWORD, code }, user.cookie)).status, end).toBe(200)
        auth.clock.advance(30_000)
      }
      const before = (await rows(auth, 'session', user.userId)).length
      const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, started.cookie)
      expect(verified.status, end).toBe(end === 'disable' ? 400 : 401)
      expect(verified.body.code, end).toBe(end === 'disable' ? 'TWO_FACTOR_NOT_ENABLED' : 'NO_PENDING_SIGN_IN')
      expect(cookieNamed(verified.setCookies, 'session_token'), end).toBeUndefined()
      expect(await rows(auth, 'session', user.userId), end).toHaveLength(before)
    }
  })

  it('expires after pendingMaxAge', async () => {
    const auth = federatedAuth()
    const user = await enroll(auth)
    const started = await federatedStep(auth, user.email)
    auth.clock.advance(601_000)
    const verified = await post(auth, '/two-factor/verify-totp', { code: appCode(user.secret, auth.clock.now()) }, started.cookie)
    expect(verified).toMatchObject({ status: 401, body: { code: 'NO_PENDING_SIGN_IN' } })
  })
})

describe("the caller's mistakes throw", () => {
  it('a field no plugin declares, a field of core or of two-factor, otp or mfa as the first factor, values a cookie should not carry', async () => {
    const auth = federatedAuth()
    const user = await enroll(auth)
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ sessionFields: { undeclared: 'x' } }, /"undeclared" is not a session field another plugin declares/],
      [{ sessionFields: { userId: 'someone-else' } }, /"userId" is not a session field/],
      [{ sessionFields: { twoFactorMethod: 'totp' } }, /"twoFactorMethod" is not a session field/],
      [{ sessionFields: { viaProvider: 'x'.repeat(257) } }, /"viaProvider" must be null, a boolean, a number or a string of at most 256/],
      [{ amr: ['fed', 'mfa'] }, /cannot claim otp or mfa/],
      [{ amr: [] }, /amr must be 1 to 4/],
      [{ amr: ['Not A Value'] }, /amr must be 1 to 4/],
    ]
    for (const [extra, message] of cases) {
      const answer = await federatedStep(auth, user.email, extra)
      expect(answer.body.thrown, JSON.stringify(extra)).toMatch(message)
      expect(cookieNamed(answer.setCookies, 'two_factor'), JSON.stringify(extra)).toBeUndefined()
    }
  })
})
