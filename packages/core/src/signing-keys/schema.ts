/**
 * @module
 * The `jwks` table: one row per signing key. The row id is the key's `kid`
 * (its RFC 7638 thumbprint), the public half is stored as JWK JSON text, the
 * private half encrypted (encryption.ts). `supersedes` names the key a row
 * replaced (`genesis:{alg}` for an algorithm's first key) and is unique: two
 * processes that decide together to create a key can insert only one, and
 * the loser signs with the winner's (docs/oidc-provider.md#signing-keys). One
 * table for every plugin that signs (the OIDC provider, session JWTs):
 * docs/plugins.md#signing-keys-shared-by-plugins.
 */
import type { SchemaExtension } from '../db/schema.js'

/**
 * @example
 * definePlugin({ id: 'jwt', schema: jwksSchema, signingKeys: { algorithms: ['EdDSA'], tokenLifetime: 900 } })
 */
export const jwksSchema = {
  jwks: {
    fields: {
      publicKey: { type: 'string' },
      privateKey: { type: 'string', returned: false },
      alg: { type: 'string', index: true },
      supersedes: { type: 'string', unique: true },
      createdAt: { type: 'date' },
      // The signing period. A successor is published before its period starts; the
      // public half stays published for one token lifetime after the period ends.
      activatesAt: { type: 'date' },
      expiresAt: { type: 'date' },
    },
  },
} as const satisfies SchemaExtension
