/**
 * @module
 * The passkey routes as the client calls them: `client.passkey.<name>`
 * (docs/passkeys.md#client). The options and verify routes are the raw
 * steps; most applications call the actions instead (`addPasskey`,
 * `signIn.passkey`), which run the browser ceremony between them.
 * `signals` name the stores to reload: the passkey list after a change, the
 * session after a sign-in. A test compares the table with the server's endpoints.
 */
import { isoDate, userShape, type RouteTable } from '@gatehouse/react/client'
import * as z from 'zod/mini'

export const passkeyShape = z.looseObject({
  id: z.string(),
  userId: z.string(),
  name: z.nullable(z.string()),
  credentialID: z.string(),
  counter: z.number(),
  deviceType: z.string(),
  backedUp: z.boolean(),
  transports: z.nullable(z.string()),
  aaguid: z.nullable(z.string()),
  createdAt: isoDate,
})

// WebAuthn options JSON: checked for the fields the browser library reads first; the rest passes through.
const creationOptionsShape = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ name: z.string() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ alg: z.number(), type: z.string() })),
})

const requestOptionsShape = z.looseObject({ challenge: z.string() })

const PASSKEYS = ['passkeys'] as const

export const passkeyRoutes = {
  passkey: {
    generateRegisterOptions: {
      endpoint: 'generatePasskeyRegistrationOptions',
      method: 'GET',
      path: '/passkey/generate-register-options',
      output: creationOptionsShape,
    },
    verifyRegistration: {
      endpoint: 'verifyPasskeyRegistration',
      method: 'POST',
      path: '/passkey/verify-registration',
      output: passkeyShape,
      signals: PASSKEYS,
    },
    generateAuthenticateOptions: {
      endpoint: 'generatePasskeyAuthenticationOptions',
      method: 'GET',
      path: '/passkey/generate-authenticate-options',
      output: requestOptionsShape,
    },
    verifyAuthentication: {
      endpoint: 'verifyPasskeyAuthentication',
      method: 'POST',
      path: '/passkey/verify-authentication',
      output: z.looseObject({ token: z.string(), user: userShape }),
      signals: ['session'],
    },
    listUserPasskeys: { endpoint: 'listPasskeys', method: 'GET', path: '/passkey/list-user-passkeys', output: z.array(passkeyShape) },
    updatePasskey: {
      endpoint: 'updatePasskey',
      method: 'POST',
      path: '/passkey/update-passkey',
      output: z.looseObject({ passkey: passkeyShape }),
      signals: PASSKEYS,
    },
    deletePasskey: {
      endpoint: 'deletePasskey',
      method: 'POST',
      path: '/passkey/delete-passkey',
      output: z.looseObject({ status: z.boolean() }),
      signals: PASSKEYS,
    },
  },
} as const satisfies RouteTable

export type PasskeyRoutes = typeof passkeyRoutes
