/**
 * A software authenticator for the tests: credentials made of node:crypto
 * key pairs (ES256, RS256, EdDSA), answers built as a browser would send
 * them (W3C WebAuthn §5.1.8 JSON), with a "none" attestation. CBOR (the
 * attestation object, the COSE public key) is encoded with cbor-x; the
 * authenticator data is laid out per §6.1: rpIdHash, flags, signCount,
 * then for a registration aaguid, credential id length and id, COSE key.
 * Every field a check looks at can be overridden, so each refusal of the
 * server can be provoked on purpose. Like a platform authenticator with a
 * PIN or biometrics, it verifies the user (sets the UV flag) when the
 * options ask for it (`required` or `preferred`) and not when they
 * discourage it; made with `userVerified: false` it is a key without a PIN,
 * which never can.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { Encoder } from 'cbor-x'

export type Algorithm = 'ES256' | 'RS256' | 'EdDSA'

const cbor = new Encoder({ mapsAsObjects: false, useRecords: false, tagUint8Array: false })

const FLAG_UP = 0x01
const FLAG_UV = 0x04
const FLAG_BE = 0x08
const FLAG_BS = 0x10
const FLAG_AT = 0x40

export interface Credential {
  readonly id: Uint8Array
  readonly algorithm: Algorithm
  readonly privateKey: KeyObject
  readonly publicKey: KeyObject
  readonly rpId: string
  readonly userHandle: string
  counter: number
}

/** What a ceremony may change from what an honest browser and authenticator would send. */
export interface Overrides {
  readonly origin?: string
  /** The relying party id whose hash goes into the authenticator data. */
  readonly rpId?: string
  readonly challenge?: string
  readonly type?: string
  readonly userPresent?: boolean
  readonly userVerified?: boolean
  /** The signature counter to report (default: the credential's, plus one when it counts). */
  readonly counter?: number
  /** The credential to answer with (default: the first one for the relying party). */
  readonly credential?: Credential
  /** The user handle to return (default: the credential's); null sends none. */
  readonly userHandle?: string | null
}

export const b64url = (bytes: Uint8Array | Buffer): string => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest()

function keyPair(algorithm: Algorithm): { privateKey: KeyObject; publicKey: KeyObject } {
  if (algorithm === 'ES256') return generateKeyPairSync('ec', { namedCurve: 'P-256' })
  if (algorithm === 'RS256') return generateKeyPairSync('rsa', { modulusLength: 2048 })
  return generateKeyPairSync('ed25519')
}

/** The public key as a COSE_Key (RFC 9053 §7), integer labels, encoded with cbor-x. */
function coseKey(credential: Pick<Credential, 'algorithm' | 'publicKey'>): Uint8Array {
  const jwk = credential.publicKey.export({ format: 'jwk' })
  // Plain Uint8Arrays of this realm: cbor-x encodes them as byte strings (under jsdom, Buffer is of another realm).
  const bytes = (value: string | undefined) => Uint8Array.from(Buffer.from(value ?? '', 'base64url'))
  if (credential.algorithm === 'ES256') {
    return cbor.encode(new Map<number, unknown>([[1, 2], [3, -7], [-1, 1], [-2, bytes(jwk.x)], [-3, bytes(jwk.y)]]))
  }
  if (credential.algorithm === 'RS256') {
    return cbor.encode(new Map<number, unknown>([[1, 3], [3, -257], [-1, bytes(jwk.n)], [-2, bytes(jwk.e)]]))
  }
  return cbor.encode(new Map<number, unknown>([[1, 1], [3, -8], [-1, 6], [-2, bytes(jwk.x)]]))
}

type UserVerification = 'required' | 'preferred' | 'discouraged'

function flags(overrides: Overrides, extra: number, uv: boolean): number {
  let value = extra | FLAG_BE | FLAG_BS
  if (overrides.userPresent ?? true) value |= FLAG_UP
  if (overrides.userVerified ?? uv) value |= FLAG_UV
  return value
}

/** Whether an authenticator verifies the user for a request asking `requested` (W3C WebAuthn §5.8.6). */
function verifies(capable: boolean | undefined, requested: UserVerification | undefined): boolean {
  if (capable === false) return false
  // Without a say from the options, WebAuthn's default is "preferred".
  return (requested ?? 'preferred') !== 'discouraged'
}

function authenticatorData(rpId: string, flagByte: number, counter: number, attested?: Uint8Array): Buffer {
  const head = Buffer.alloc(37)
  sha256(rpId).copy(head, 0)
  head.writeUInt8(flagByte, 32)
  head.writeUInt32BE(counter, 33)
  return attested ? Buffer.concat([head, attested]) : head
}

function signWith(credential: Credential, data: Buffer): Buffer {
  // ES256 and RS256 sign SHA-256 digests (ECDSA signatures DER-encoded, as WebAuthn sends them); EdDSA signs the data itself.
  return sign(credential.algorithm === 'EdDSA' ? null : 'sha256', data, credential.privateKey)
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
}

export interface CreationOptions {
  readonly challenge: string
  readonly rp: { readonly id?: string }
  readonly user: { readonly id: string }
  readonly authenticatorSelection?: { readonly userVerification?: UserVerification }
}

export interface RequestOptions {
  readonly challenge: string
  readonly rpId?: string
  readonly userVerification?: UserVerification
}

/**
 * `userVerified: false` makes an authenticator that cannot verify the user
 * (a key without a PIN); by default it verifies when asked.
 *
 * @example
 * const authenticator = softwareAuthenticator('http://localhost:3000')
 * const response = authenticator.register(optionsFromServer)
 */
export function softwareAuthenticator(origin: string, defaults: { algorithm?: Algorithm; userVerified?: boolean; counts?: boolean } = {}) {
  const credentials: Credential[] = []
  const counts = defaults.counts ?? true

  return {
    credentials,
    /** Answers `navigator.credentials.create()` for the server's options: a new credential. */
    register(options: CreationOptions, overrides: Overrides & { algorithm?: Algorithm } = {}) {
      const algorithm = overrides.algorithm ?? defaults.algorithm ?? 'ES256'
      const rpId = options.rp.id ?? new URL(origin).hostname
      // An existing credential answers again (as a broken or malicious authenticator would): same id and key.
      const credential: Credential = overrides.credential ?? {
        id: randomBytes(16),
        algorithm,
        ...keyPair(algorithm),
        rpId,
        userHandle: options.user.id,
        counter: 0,
      }
      const idLength = Buffer.alloc(2)
      idLength.writeUInt16BE(credential.id.length)
      const attested = Buffer.concat([Buffer.alloc(16), idLength, credential.id, coseKey(credential)])
      const uv = verifies(defaults.userVerified, options.authenticatorSelection?.userVerification)
      const data = authenticatorData(overrides.rpId ?? rpId, flags(overrides, FLAG_AT, uv), overrides.counter ?? 0, attested)
      const attestationObject = cbor.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', Uint8Array.from(data)],
        ]),
      )
      if (!overrides.credential) credentials.push(credential)
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientData(overrides.type ?? 'webauthn.create', overrides.challenge ?? options.challenge, overrides.origin ?? origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal', 'hybrid'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform' as const,
      }
    },

    /** Answers `navigator.credentials.get()`: an assertion by a discoverable credential. */
    authenticate(options: RequestOptions, overrides: Overrides = {}) {
      const rpId = options.rpId ?? new URL(origin).hostname
      const credential = overrides.credential ?? credentials.find((entry) => entry.rpId === rpId)
      if (!credential) throw new Error(`no credential for ${rpId}`)
      const counter = overrides.counter ?? (counts ? credential.counter + 1 : 0)
      credential.counter = counter
      const data = authenticatorData(overrides.rpId ?? rpId, flags(overrides, 0, verifies(defaults.userVerified, options.userVerification)), counter)
      const json = clientData(overrides.type ?? 'webauthn.get', overrides.challenge ?? options.challenge, overrides.origin ?? origin)
      const signature = signWith(credential, Buffer.concat([data, sha256(json)]))
      const userHandle = overrides.userHandle === undefined ? credential.userHandle : overrides.userHandle
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(json),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          ...(userHandle === null ? {} : { userHandle }),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform' as const,
      }
    },
  }
}

export type SoftwareAuthenticator = ReturnType<typeof softwareAuthenticator>
