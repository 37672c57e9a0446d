/**
 * A sign-in that checked a credential before a revocation committed creates
 * no session after it (docs/sessions.md#sign-ins-racing-a-revocation), on the
 * memory adapter. The same cases run on the SQL backends in password-races-sql.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { accountAuth, signIn, signUp } from './accounts.js'
import { heldVerifier, raceSignInAgainst, REVOCATIONS } from './sign-in-races.js'

describe('a password sign-in racing a revocation', () => {
  for (const revocation of REVOCATIONS) {
    it(`leaves no session when ${revocation.name} commits between its check and its session`, async () => {
      const verifier = heldVerifier()
      const auth = accountAuth({ emailAndPassword: { enabled: true, password: verifier.password } })
      await raceSignInAgainst(auth, verifier, `race-${revocation.name.replace(/\W+/g, '-')}@example.com`, revocation)
    })
  }

  it('a held sign-in with nothing revoked meanwhile still signs in (control)', async () => {
    const verifier = heldVerifier()
    const auth = accountAuth({ emailAndPassword: { enabled: true, password: verifier.password } })
    await signUp(auth, { email: 'control@example.com' })
    const waiting = verifier.holdNext()
    const signingIn = signIn(auth, { email: 'control@example.com' })
    await waiting
    verifier.release()
    const { response, body } = await signingIn
    expect(response.status).toBe(200)
    expect(typeof body.token).toBe('string')
  })

  it('the credential version is never returned to clients', async () => {
    const auth = accountAuth()
    const { body } = await signUp(auth, { email: 'hidden@example.com' })
    expect(body.user).not.toHaveProperty('credentialVersion')
    const { adapter } = await auth.$context
    const [session] = await adapter.findMany<{ amr: string | null }>({ model: 'session' })
    expect(session?.amr).toBe('pwd')
  })
})
