/**
 * `navigator.credentials` for jsdom, answered by the software authenticator:
 * what a browser with one platform authenticator does, as far as
 * @simplewebauthn/browser can tell (ArrayBuffers in, a PublicKeyCredential-
 * shaped object out). Only the environment is replaced; the client half,
 * the browser library and the server run for real. `next` makes the next
 * ceremony fail with a DOMException, as a cancelled prompt does.
 */
import { b64url, type SoftwareAuthenticator } from './authenticator.js'

const buffer = (text: string): ArrayBuffer => {
  const bytes = Buffer.from(text, 'base64url')
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}
const text = (source: BufferSource): string => b64url(Buffer.from(source instanceof ArrayBuffer ? source : source.buffer))

/** The PublicKeyCredential-shaped object a ceremony resolves to, around the authenticator's `response`. */
const credential = (answer: { id: string; rawId: string }, response: Record<string, unknown>) => ({
  id: answer.id,
  rawId: buffer(answer.rawId),
  type: 'public-key',
  authenticatorAttachment: 'platform',
  response,
  getClientExtensionResults: () => ({}),
})

export function installWebAuthn(authenticator: SoftwareAuthenticator) {
  const calls: Array<{ kind: 'create' | 'get'; mediation: string | undefined }> = []
  const state: { fail: string | null } = { fail: null }
  /** Records the ceremony; a failing one rejects as the browser would. */
  const begin = (kind: 'create' | 'get', mediation: string | undefined) => {
    calls.push({ kind, mediation })
    if (state.fail) throw new DOMException('The operation either timed out or was not allowed.', state.fail)
  }
  const credentials = {
    async create(options: CredentialCreationOptions & { mediation?: string }) {
      begin('create', options.mediation)
      const publicKey = options.publicKey!
      const answer = authenticator.register({ challenge: text(publicKey.challenge), rp: { id: publicKey.rp.id }, user: { id: text(publicKey.user.id) } })
      return credential(answer, {
        clientDataJSON: buffer(answer.response.clientDataJSON),
        attestationObject: buffer(answer.response.attestationObject),
        getTransports: () => answer.response.transports,
      })
    },
    async get(options: CredentialRequestOptions) {
      begin('get', options.mediation)
      const publicKey = options.publicKey!
      const answer = authenticator.authenticate({ challenge: text(publicKey.challenge), ...(publicKey.rpId ? { rpId: publicKey.rpId } : {}) })
      return credential(answer, {
        clientDataJSON: buffer(answer.response.clientDataJSON),
        authenticatorData: buffer(answer.response.authenticatorData),
        signature: buffer(answer.response.signature),
        userHandle: answer.response.userHandle ? buffer(answer.response.userHandle) : null,
      })
    },
  }
  Object.defineProperty(navigator, 'credentials', { value: credentials, configurable: true })
  // What the library tests for WebAuthn and for conditional mediation (autofill).
  const PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, { isConditionalMediationAvailable: async () => true })
  Object.defineProperty(window, 'PublicKeyCredential', { value: PublicKeyCredential, configurable: true })
  Object.defineProperty(globalThis, 'PublicKeyCredential', { value: PublicKeyCredential, configurable: true })
  return { calls, state }
}
