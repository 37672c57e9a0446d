/**
 * @module
 * POST /passkey/verify-authentication {response}
 * (docs/passkeys.md#signing-in): signs in with a passkey. Consumes this
 * browser's sign-in challenge first (single use: of parallel answers one
 * at most gets this far), finds the credential by its id, checks the user
 * handle the authenticator returned, and verifies the assertion (origin,
 * relying party id hash, challenge, signature, user presence, user
 * verification unless configured `preferred` (docs/passkeys.md#security),
 * and a signature counter that must grow once it is non-zero: W3C WebAuthn
 * §6.1.1, a cloned authenticator). Then, in
 * one transaction, it moves the counter on only if nobody moved it since it
 * was read (two sign-ins racing with one counter value: one wins) and
 * creates the session through core, so database hooks (an admin ban) still
 * decide. Every ceremony failure is the same 401, like a wrong password;
 * the log says which check failed.
 */
import {
  AuthError,
  createSession,
  defineEndpoint,
  isAuthError,
  publicRow,
  setSessionCookies,
  sha256Base64url,
  type CreatedSession,
  type EndpointContext,
  type Row,
  type User,
} from '@gatehouse/core'
import { z } from 'zod'
import { consumeChallenge, matchesChallenge, type ChallengeClaims } from '../challenge.js'
import { fromBase64url } from '../encoding.js'
import { PasskeyErrors } from '../errors.js'
import { relyingParty, type ResolvedPasskeyOptions } from '../options.js'
import { asAuthenticationResponse, authenticationResponse, knownTransports } from '../responses.js'
import type { PasskeyRow } from '../schema.js'
import { webauthn } from '../webauthn.js'
import { challengeRefusal, reasonOf } from './refuse.js'

const body = z.lazy(() => z.object({ response: authenticationResponse }))
type Body = z.output<typeof body>

/**
 * @example
 * const credential = await startAuthentication({ optionsJSON, useBrowserAutofill: true }) // @simplewebauthn/browser
 * // POST /api/auth/passkey/verify-authentication { response: credential } → { token, user } and the session cookie
 */
export function verifyAuthentication(options: ResolvedPasskeyOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/passkey/verify-authentication',
    body,
    handler: async (ctx) => {
      const attempt = await consumeChallenge(ctx, ctx.db, 'authenticate')
      if (!attempt.ok) throw challengeRefusal(attempt)
      const refuse = (reason: string): never => {
        ctx.logger.info('passkey: sign-in refused', { reason })
        throw new AuthError(PasskeyErrors.AUTHENTICATION_FAILED)
      }

      const response = ctx.body.response
      const passkey = await ctx.db.findOne<PasskeyRow>({
        model: 'passkey',
        where: { field: 'credentialIDHash', value: sha256Base64url(response.id) },
      })
      if (!passkey) return refuse('unknown credential')
      // A discoverable credential names its user; it must be the one the credential was registered for.
      if (response.response.userHandle !== undefined && response.response.userHandle !== passkey.userHandle) {
        return refuse('user handle does not match the credential')
      }

      const asserted = await verifyAssertion(ctx, options, attempt.claims, passkey).catch((error: unknown) => refuse(reasonOf(error)))
      const session = await signIn(ctx, passkey, asserted)
      setSessionCookies(ctx, session, { dontRemember: false })
      return { token: session.token, user: publicRow(ctx.auth.schema, 'user', session.user) }
    },
  })
}

/** What a verified assertion reported: the authenticator's counter, and whether it verified the user (UV). */
interface Asserted {
  readonly newCounter: number
  readonly userVerified: boolean
}

/** The library's checks; what the authenticator reported, or a throw naming the failed check. */
async function verifyAssertion(
  ctx: EndpointContext<Body>,
  options: ResolvedPasskeyOptions,
  claims: ChallengeClaims,
  passkey: PasskeyRow,
): Promise<Asserted> {
  const rp = relyingParty(ctx.auth, options)
  const { verifyAuthenticationResponse } = await webauthn()
  const verification = await verifyAuthenticationResponse({
    response: asAuthenticationResponse(ctx.body.response),
    expectedChallenge: matchesChallenge(claims),
    expectedOrigin: rp.origins,
    expectedRPID: rp.id,
    credential: {
      id: passkey.credentialID,
      publicKey: fromBase64url(passkey.publicKey),
      counter: Number(passkey.counter),
      transports: knownTransports(passkey.transports),
    },
    // The library's default is true; spelled out because only a verified user makes a passkey more than one factor.
    requireUserVerification: options.userVerification === 'required',
  })
  if (!verification.verified) throw new Error('assertion not verified')
  return { newCounter: verification.authenticationInfo.newCounter, userVerified: verification.authenticationInfo.userVerified }
}

/**
 * The session's `amr` (RFC 8176 §2; docs/passkeys.md#how-the-session-records-a-passkey): `hwk`, a key
 * held by an authenticator, proven by its signature; `user`, the user-presence test every assertion
 * passes (the UP flag); and `mfa` when the authenticator also verified the user (UV: its PIN or
 * biometrics), which makes the passkey more than one factor. Which of PIN or biometrics the
 * authenticator used is not reported, so neither `pin` nor `fpt` is claimed.
 */
function passkeyAmr(userVerified: boolean): string[] {
  return userVerified ? ['hwk', 'user', 'mfa'] : ['hwk', 'user']
}

/** Moves the counter on and creates the session, together or not at all. */
async function signIn(ctx: EndpointContext<Body>, passkey: PasskeyRow, asserted: Asserted): Promise<CreatedSession> {
  try {
    return await ctx.db.transaction(async (tx) => {
      // The user row first, as every revocation locks it first: a first proof of the mailbox that deletes
      // this passkey and this sign-in never wait on each other's locks (docs/sessions.md#sign-ins-racing-a-revocation).
      const user = await tx.lock<User & Row>({ model: 'user', where: { field: 'id', value: passkey.userId } })
      if (!user) throw new AuthError(PasskeyErrors.AUTHENTICATION_FAILED)
      const moved = await tx.update<PasskeyRow>({
        model: 'passkey',
        where: [
          { field: 'id', value: passkey.id },
          { field: 'counter', value: passkey.counter },
        ],
        update: { counter: asserted.newCounter },
      })
      if (!moved) throw new AuthError(PasskeyErrors.AUTHENTICATION_FAILED)
      return createSession(ctx.auth, user, {
        ipAddress: ctx.ip,
        userAgent: ctx.headers.get('user-agent'),
        db: tx,
        amr: passkeyAmr(asserted.userVerified),
      })
    })
  } catch (error) {
    // A ban (or another hook's veto) keeps its own answer.
    if (isAuthError(error)) throw error
    ctx.logger.error('passkey: session not created', { error: error instanceof Error ? error.name : typeof error })
    throw new AuthError(PasskeyErrors.UNABLE_TO_CREATE_SESSION)
  }
}
