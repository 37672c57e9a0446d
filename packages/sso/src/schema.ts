/**
 * @module
 * The plugin's table and the session field it adds (docs/sso.md#tables).
 *
 * `ssoProvider` holds one identity provider of one organization. `oidcConfig`
 * and `samlConfig` are JSON text whose secrets (`clientSecret`, `privateKey`,
 * `decryptionPvk`) are sealed with AES-256-GCM (services/provider-secrets.ts).
 * Deleting the organization deletes its providers (cascade); deleting the
 * user who registered one only clears `userId` (set null): the provider is
 * the organization's, and its people must keep signing in after the admin
 * who set it up leaves.
 *
 * `verifiedDomain` is the domain while it is verified, null otherwise, under a
 * unique index: the database itself refuses a second provider verified for
 * the same domain, whichever organization it belongs to and however two
 * verify-domain calls interleave (unique indexes hold many nulls).
 *
 * `session.ssoProviderId` records the provider a session was signed in
 * through, so deleting a provider ends those sessions (routes/provider/delete-provider.ts).
 */
import type { SchemaExtension } from '@gatehouse/core'

/**
 * @example
 * mergeSchemas(coreSchema, organizationSchema(resolveOrganizationOptions()), ssoSchema)
 */
export const ssoSchema = {
  ssoProvider: {
    fields: {
      providerId: { type: 'string', unique: true },
      issuer: { type: 'string' },
      // Stored lowercase, in its ASCII (punycode) form: domains/email-domain.ts.
      domain: { type: 'string', index: true, lowercase: true },
      domainVerified: { type: 'boolean', defaultValue: false },
      verifiedDomain: { type: 'string', required: false, unique: true, lowercase: true, input: false },
      oidcConfig: { type: 'string', required: false, returned: false },
      samlConfig: { type: 'string', required: false, returned: false },
      // Whether an SSO sign-in of a user with two-factor on asks for it: 'skip' or 'require' (docs/sso.md#two-factor).
      twoFactor: { type: 'string', defaultValue: 'skip' },
      userId: { type: 'string', required: false, index: true, references: { model: 'user', field: 'id', onDelete: 'set null' } },
      organizationId: { type: 'string', index: true, references: { model: 'organization', field: 'id', onDelete: 'cascade' } },
      createdAt: { type: 'date' },
      updatedAt: { type: 'date' },
    },
  },
  session: {
    fields: {
      ssoProviderId: { type: 'string', required: false, index: true, input: false },
    },
  },
} as const satisfies SchemaExtension

/** A provider row as stored (secrets still sealed). */
export interface ProviderRow {
  [field: string]: unknown
  id: string
  providerId: string
  issuer: string
  domain: string
  domainVerified: boolean
  verifiedDomain: string | null
  oidcConfig: string | null
  samlConfig: string | null
  twoFactor: string
  userId: string | null
  organizationId: string
  createdAt: Date
  updatedAt: Date
}
