/**
 * @module
 * @simplewebauthn/server, loaded on first use (docs/passkeys.md#start-up):
 * it pulls in ASN.1 and certificate code that an auth which never sees a
 * passkey request should not pay for at start-up. The promise is cached, so
 * the module is loaded once per process.
 */
type WebAuthnServer = typeof import('@simplewebauthn/server')

let loading: Promise<WebAuthnServer> | undefined

/**
 * @example
 * const { verifyAuthenticationResponse } = await webauthn()
 */
export function webauthn(): Promise<WebAuthnServer> {
  loading ??= import('@simplewebauthn/server').catch((error: unknown) => {
    // A failed load (a broken install) is not cached: the next request tries again.
    loading = undefined
    throw error
  })
  return loading
}
