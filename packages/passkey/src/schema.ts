/**
 * @module
 * The plugin's table (docs/passkeys.md#tables). One row per credential.
 * The credential id is looked up by its SHA-256 (`credentialIDHash`, unique):
 * ids may be up to 1023 bytes (W3C WebAuthn §5.1), more than a unique
 * VARCHAR(255) holds on MySQL, and the unique constraint is what makes a
 * credential registered twice (say, by two racing requests) fail. The
 * counter is a 64-bit column: authenticators count to 2^32 - 1.
 * `userHandle` is the random WebAuthn user id the credential was made for,
 * not the user's id (docs/passkeys.md#user-handles). Deleting a user deletes
 * their passkeys.
 */
import type { SchemaExtension } from '@gatehouse/core'

export const passkeySchema = {
  passkey: {
    fields: {
      userId: { type: 'string', index: true, references: { model: 'user', field: 'id', onDelete: 'cascade' } },
      name: { type: 'string', required: false },
      credentialID: { type: 'string' },
      credentialIDHash: { type: 'string', unique: true },
      // The COSE public key, base64url: not secret, but no client needs it.
      publicKey: { type: 'string', returned: false },
      counter: { type: 'number', bigint: true },
      deviceType: { type: 'string' },
      backedUp: { type: 'boolean' },
      // Comma-joined AuthenticatorTransport values, e.g. "internal,hybrid"; null when the browser gave none.
      transports: { type: 'string', required: false },
      aaguid: { type: 'string', required: false },
      userHandle: { type: 'string', returned: false },
      createdAt: { type: 'date' },
    },
  },
} as const satisfies SchemaExtension

/** A passkey row as stored (a type, not an interface: rows are index-signature records). */
export type PasskeyRow = {
  readonly id: string
  readonly userId: string
  readonly name: string | null
  readonly credentialID: string
  readonly credentialIDHash: string
  readonly publicKey: string
  readonly counter: number
  readonly deviceType: string
  readonly backedUp: boolean
  readonly transports: string | null
  readonly aaguid: string | null
  readonly userHandle: string
  readonly createdAt: Date
}

/** What the routes send back of a passkey: never the public key or the user handle. */
export interface PublicPasskey {
  readonly id: string
  readonly userId: string
  readonly name: string | null
  readonly credentialID: string
  readonly counter: number
  readonly deviceType: string
  readonly backedUp: boolean
  readonly transports: string | null
  readonly aaguid: string | null
  readonly createdAt: Date
}

/**
 * @example
 * publicPasskey(row) // { id, userId, name, credentialID, counter, deviceType, backedUp, transports, aaguid, createdAt }
 */
export function publicPasskey(row: PasskeyRow): PublicPasskey {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    credentialID: row.credentialID,
    counter: Number(row.counter),
    deviceType: row.deviceType,
    backedUp: row.backedUp,
    transports: row.transports,
    aaguid: row.aaguid,
    createdAt: row.createdAt,
  }
}
