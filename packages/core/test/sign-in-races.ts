/**
 * Shared cases for sign-ins racing a revocation (docs/sessions.md#sign-ins-racing-a-revocation):
 * a password sign-in is held right after it verified the password, a
 * revocation commits, then the sign-in goes on. It must not leave a session.
 * Run on the memory adapter (sign-in-races.test.ts) and on every SQL backend
 * (password-races-sql.test.ts), where the two requests hold real row locks.
 */
import { expect } from 'vitest'
import { defaultPasswordHasher } from '../src/password/index.js'
import { authed, PASSWORD, signIn, signUp } from './accounts.js'
import { BASE, request } from './helpers.js'

/**
 * The default hasher, except that a verification of `held` passwords waits,
 * after the password was checked, until `release()`: the sign-in is then
 * between its check and its session. `reached` resolves once one waits.
 */
export function heldVerifier() {
  let holding = false
  let reach: () => void = () => {}
  let release: () => void = () => {}
  let reached = Promise.resolve()
  let released = Promise.resolve()
  return {
    password: {
      hash: (password: string) => defaultPasswordHasher.hash(password),
      verify: async (args: { hash: string; password: string }) => {
        const valid = await defaultPasswordHasher.verify(args)
        if (holding) {
          holding = false
          reach()
          await released
        }
        return valid
      },
    },
    /** Holds the next verification; returns the promise that it is waiting. */
    holdNext(): Promise<void> {
      holding = true
      reached = new Promise((resolve) => (reach = resolve))
      released = new Promise((resolve) => (release = resolve))
      return reached
    },
    release: () => release(),
  }
}

interface RaceAuth {
  handler(request: Request): Promise<Response>
  readonly $context: Promise<{ adapter: { findMany(args: { model: string; where?: unknown }): Promise<unknown[]> } }>
  readonly mailbox: { last(kind: 'reset-password'): { token: string } | undefined }
}

type Revoke = (auth: RaceAuth, cookie: string, email: string) => Promise<Response>

/** The revocations a sign-in races: each must leave no session the sign-in made. */
export const REVOCATIONS: ReadonlyArray<{ name: string; revoke: Revoke; keepsOwnSession: boolean }> = [
  {
    name: 'change-password with revokeOtherSessions',
    keepsOwnSession: true,
    revoke: (auth, cookie) =>
      auth.handler(
        authed('/api/auth/change-password', cookie, {
          method: 'POST',
          json: { currentPassword: PASSWORD, newPassword: 'a brand new passphrase', revokeOtherSessions: true },
        }),
      ),
  },
  {
    name: 'reset-password',
    keepsOwnSession: false,
    revoke: async (auth, _cookie, email) => {
      await auth.handler(request('/api/auth/request-password-reset', { json: { email }, headers: { origin: BASE } }))
      const token = auth.mailbox.last('reset-password')?.token ?? ''
      return auth.handler(
        request('/api/auth/reset-password', { json: { newPassword: 'a brand new passphrase', token }, headers: { origin: BASE } }),
      )
    },
  },
  {
    name: 'revoke-sessions',
    keepsOwnSession: false,
    revoke: (auth, cookie) => auth.handler(authed('/api/auth/revoke-sessions', cookie, { method: 'POST', json: {} })),
  },
]

/**
 * Signs `email` up, holds a second sign-in after its password check, runs
 * `revoke` to completion, releases the sign-in: it answers 401 and the user
 * has no session but the one the revocation kept.
 */
export async function raceSignInAgainst(
  auth: RaceAuth,
  verifier: ReturnType<typeof heldVerifier>,
  email: string,
  revocation: (typeof REVOCATIONS)[number],
): Promise<void> {
  const { cookie, body } = await signUp(auth, { email })
  const userId = body.user.id as string
  const waiting = verifier.holdNext()
  const signingIn = signIn(auth, { email })
  await waiting
  const revoked = await revocation.revoke(auth, cookie, email)
  expect(revoked.status).toBe(200)
  verifier.release()
  const late = await signingIn
  expect(late.response.status).toBe(401)
  expect(late.body.code).toBe('INVALID_EMAIL_OR_PASSWORD')
  expect(late.response.headers.getSetCookie().some((line) => /session_token=[^;]/.test(line))).toBe(false)
  const { adapter } = await auth.$context
  const sessions = await adapter.findMany({ model: 'session', where: [{ field: 'userId', value: userId }] })
  expect(sessions).toHaveLength(revocation.keepsOwnSession ? 1 : 0)
}
