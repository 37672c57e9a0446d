/**
 * @module
 * The browser's answers as request bodies: the JSON serialisation of a
 * PublicKeyCredential (W3C WebAuthn §5.1.8, `toJSON()`), checked for shape
 * and size before the WebAuthn library sees them. Unknown fields (future
 * extensions) pass through; the library reads what it knows.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import { z } from 'zod'

// Bounds far above real answers (an attestation with a certificate chain is a few kB), far below abuse.
const base64url = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+$/)

// Built on first use (z.lazy), not at start-up: a server that never sees a passkey never builds them.
function common() {
  const credentialId = base64url(1400)
  return {
    id: credentialId,
    rawId: credentialId,
    type: z.literal('public-key'),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  }
}

export const registrationResponse = z.lazy(() =>
  z.looseObject({
    ...common(),
    response: z.looseObject({
      clientDataJSON: base64url(8192),
      attestationObject: base64url(65536),
      transports: z.array(z.string().max(32)).max(16).optional(),
    }),
  }),
)

export const authenticationResponse = z.lazy(() =>
  z.looseObject({
    ...common(),
    response: z.looseObject({
      clientDataJSON: base64url(8192),
      authenticatorData: base64url(8192),
      signature: base64url(2048),
      userHandle: base64url(128).optional(),
    }),
  }),
)

/**
 * The checked body as the library's type. Only the string unions (transport
 * names, attachment) are narrower there; the library validates those itself.
 */
export function asRegistrationResponse(body: z.output<typeof registrationResponse>): RegistrationResponseJSON {
  return body as RegistrationResponseJSON
}

/** As {@link asRegistrationResponse}, for a sign-in answer. */
export function asAuthenticationResponse(body: z.output<typeof authenticationResponse>): AuthenticationResponseJSON {
  return body as AuthenticationResponseJSON
}

/** AuthenticatorTransport values (W3C WebAuthn §5.8.4), with the older `cable` and `smart-card`. */
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'])

/**
 * The stored comma-joined transports the library knows, for a credential descriptor.
 *
 * @example
 * knownTransports('internal,hybrid') // ['internal', 'hybrid']
 */
export function knownTransports(stored: string | null): string[] | undefined {
  if (!stored) return undefined
  return stored.split(',').filter((transport) => TRANSPORTS.has(transport))
}
