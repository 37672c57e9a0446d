/**
 * @module
 * The provider's tables (docs/oidc-provider.md#schema). Secrets never sit in
 * the clear: `clientSecret`, `accessToken` and `refreshToken` hold SHA-256
 * digests and lookups go by digest. Beyond the documented fields, a token row
 * carries `grantId` (the digest of the authorization code it came from, kept
 * across refresh rotations, so a replayed code or a reused refresh token can
 * revoke the whole family) and `rotatedAt` (set when its refresh token was
 * exchanged: a second use is then detectable as reuse). Authorization codes
 * and pending consents live in core's verification table.
 */
import type { SchemaExtension } from '@gatehouse/core'
import { jwksSchema } from '@gatehouse/core'

const user = { model: 'user', field: 'id', onDelete: 'cascade' } as const

/**
 * @example
 * mergeSchemas(coreSchema, oidcProviderSchema)
 */
export const oidcProviderSchema = {
  oauthApplication: {
    fields: {
      name: { type: 'string' },
      icon: { type: 'string', required: false },
      metadata: { type: 'json', required: false },
      clientId: { type: 'string', unique: true },
      /** SHA-256 (base64url) of the secret; null for public clients. */
      clientSecret: { type: 'string', required: false },
      /** Comma-separated; registration refuses URIs containing a comma. */
      redirectURLs: { type: 'string' },
      postLogoutRedirectURLs: { type: 'string', required: false },
      type: { type: 'string' },
      tokenEndpointAuthMethod: { type: 'string', defaultValue: 'client_secret_basic' },
      /** Space-separated, as RFC 7591 metadata echoes them back. */
      grantTypes: { type: 'string', defaultValue: 'authorization_code' },
      responseTypes: { type: 'string', defaultValue: 'code' },
      scope: { type: 'string', required: false },
      /** First-party clients made through `api.oauth2CreateClient` may skip the consent page. */
      skipConsent: { type: 'boolean', defaultValue: false },
      disabled: { type: 'boolean', defaultValue: false },
      /**
       * Registered by the operator rather than self-registered at /oauth2/register
       * (docs/oidc-provider.md#verified-and-self-registered-clients). Rows from before
       * the column count as self-registered until the operator marks them.
       */
      verified: { type: 'boolean', defaultValue: false },
      userId: { type: 'string', required: false, index: true, references: user },
      createdAt: { type: 'date' },
      updatedAt: { type: 'date' },
    },
  },
  oauthAccessToken: {
    fields: {
      accessToken: { type: 'string', unique: true },
      refreshToken: { type: 'string', unique: true, required: false },
      accessTokenExpiresAt: { type: 'date' },
      refreshTokenExpiresAt: { type: 'date', required: false },
      clientId: { type: 'string', index: true },
      userId: { type: 'string', index: true, references: user },
      /** Space-separated. */
      scopes: { type: 'string' },
      grantId: { type: 'string', index: true },
      rotatedAt: { type: 'date', required: false },
      /** When the user signed in for the grant: the ID Token's auth_time, kept for refreshed ID Tokens. */
      authTime: { type: 'date', required: false },
      /** When the user authorized the grant: refresh tokens of the family end `refreshTokenMaxAge` after it. */
      grantedAt: { type: 'date', required: false },
      /** How the user signed in for the grant (space-separated RFC 8176 values): the ID Token's `amr`, kept for refreshed ID Tokens. */
      amr: { type: 'string', required: false },
      /** The ID Token's `acr` chosen at authorization (docs/oidc-provider.md#amr-and-acr). */
      acr: { type: 'string', required: false },
      createdAt: { type: 'date' },
      updatedAt: { type: 'date' },
    },
  },
  oauthConsent: {
    fields: {
      clientId: { type: 'string', index: true },
      userId: { type: 'string', index: true, references: user },
      /** Space-separated. */
      scopes: { type: 'string' },
      consentGiven: { type: 'boolean', defaultValue: false },
      /**
       * When the user last ended this client's grant (connected apps): codes and
       * pending consents issued up to then are refused (docs/oidc-provider.md#connected-apps).
       */
      revokedAt: { type: 'date', required: false },
      createdAt: { type: 'date' },
      updatedAt: { type: 'date' },
    },
    // One consent record per (client, user): two concurrent accepts cannot both insert.
    unique: [['clientId', 'userId']],
  },
  ...jwksSchema,
} as const satisfies SchemaExtension
