/**
 * @module
 * The passkey endpoints by `auth.api` name (docs/passkeys.md#routes).
 */
import type { ResolvedPasskeyOptions } from '../options.js'
import { deletePasskey } from './delete-passkey.js'
import { generateAuthenticateOptions } from './generate-authenticate-options.js'
import { generateRegisterOptions } from './generate-register-options.js'
import { listUserPasskeys } from './list-user-passkeys.js'
import { updatePasskey } from './update-passkey.js'
import { verifyAuthentication } from './verify-authentication.js'
import { verifyRegistration } from './verify-registration.js'

export function passkeyEndpoints(options: ResolvedPasskeyOptions) {
  return {
    generatePasskeyRegistrationOptions: generateRegisterOptions(options),
    verifyPasskeyRegistration: verifyRegistration(options),
    generatePasskeyAuthenticationOptions: generateAuthenticateOptions(options),
    verifyPasskeyAuthentication: verifyAuthentication(options),
    listPasskeys: listUserPasskeys,
    updatePasskey,
    deletePasskey,
  }
}

export type PasskeyEndpoints = ReturnType<typeof passkeyEndpoints>
