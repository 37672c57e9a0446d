/**
 * @module
 * The register and update bodies (docs/sso.md#registering-a-provider), field
 * for field the leading library's, so its `ssoClient()` sends them unchanged.
 * Every input is capped (docs/sso.md#input-limits): URLs 2048 characters,
 * certificates and keys 16 KiB, metadata XML 100 KiB, lists and maps a few
 * dozen entries; a provider's configuration is read on every sign-in, and an
 * organization admin is not trusted to keep it small. Fields this plugin does
 * not implement (`private_key_jwt`, the SP key fields inside `spMetadata` and
 * `idpMetadata`) are dropped by parsing, never stored unsealed.
 */
import { z } from 'zod'

export const MAX_URL = 2048
export const MAX_PEM = 16 * 1024
export const MAX_METADATA = 100 * 1024
const MAX_NAME = 256
const MAX_ID = 1024

const url = z.string().max(MAX_URL).pipe(z.url())
const name = z.string().max(MAX_NAME)
const extraFields = z.record(name, name).refine((map) => Object.keys(map).length <= 50, { message: 'at most 50 extra fields' })

const oidcMapping = z.object({
  id: name.optional(),
  email: name.optional(),
  emailVerified: name.optional(),
  name: name.optional(),
  image: name.optional(),
  groups: name.optional(),
  extraFields: extraFields.optional(),
})

const samlMapping = z.object({
  id: name.optional(),
  email: name.optional(),
  emailVerified: name.optional(),
  name: name.optional(),
  firstName: name.optional(),
  lastName: name.optional(),
  groups: name.optional(),
  extraFields: extraFields.optional(),
})

export const oidcConfigBody = z.object({
  clientId: z.string().min(1).max(MAX_ID),
  clientSecret: z.string().min(1).max(MAX_PEM).optional(),
  discoveryEndpoint: url.optional(),
  authorizationEndpoint: url.optional(),
  tokenEndpoint: url.optional(),
  userInfoEndpoint: url.optional(),
  jwksEndpoint: url.optional(),
  tokenEndpointAuthentication: z.enum(['client_secret_basic', 'client_secret_post']).optional(),
  scopes: z.array(name).max(50).optional(),
  pkce: z.boolean().optional(),
  skipDiscovery: z.boolean().optional(),
  mapping: oidcMapping.optional(),
})

const service = z.object({ Binding: name, Location: url })

const idpMetadata = z.object({
  metadata: z.string().min(1).max(MAX_METADATA).optional(),
  entityID: z.string().min(1).max(MAX_URL).optional(),
  cert: z.string().min(1).max(MAX_PEM).optional(),
  singleSignOnService: z.array(service).max(10).optional(),
  singleLogoutService: z.array(service).max(10).optional(),
})

const spMetadata = z.object({
  metadata: z.string().min(1).max(MAX_METADATA).optional(),
  entityID: z.string().min(1).max(MAX_URL).optional(),
  binding: name.optional(),
})

export const samlConfigBody = z.object({
  entryPoint: url,
  cert: z.string().min(1).max(MAX_PEM).optional(),
  // Where an IdP-initiated sign-in lands (saml/validate.ts): a same-site path or a trusted origin's URL.
  callbackUrl: z.string().min(1).max(MAX_URL).optional(),
  audience: z.string().min(1).max(MAX_URL).optional(),
  idpMetadata: idpMetadata.optional(),
  spMetadata: spMetadata.optional(),
  wantAssertionsSigned: z.boolean().optional(),
  authnRequestsSigned: z.boolean().optional(),
  signatureAlgorithm: name.optional(),
  digestAlgorithm: name.optional(),
  identifierFormat: name.optional(),
  privateKey: z.string().min(1).max(MAX_PEM).optional(),
  decryptionPvk: z.string().min(1).max(MAX_PEM).optional(),
  mapping: samlMapping.optional(),
})

export const twoFactorBody = z.enum(['skip', 'require'])

/**
 * POST /sso/register. `organizationId` is optional on the wire, as in the
 * leading library, and required by the route (400 "Organization ID is
 * required"): a provider belongs to an organization (docs/sso.md#who-manages-a-provider).
 */
export const registerBody = z.object({
  providerId: z.string().min(1).max(MAX_NAME),
  issuer: url,
  domain: z.string().min(1).max(MAX_NAME),
  organizationId: z.string().min(1).max(MAX_NAME).optional(),
  oidcConfig: oidcConfigBody.optional(),
  samlConfig: samlConfigBody.optional(),
  twoFactor: twoFactorBody.optional(),
})

/** POST /sso/update-provider: any of the register fields, each replacing or merging into the stored one. */
export const updateBody = z.object({
  providerId: z.string().min(1).max(MAX_NAME),
  issuer: url.optional(),
  domain: z.string().min(1).max(MAX_NAME).optional(),
  oidcConfig: oidcConfigBody.partial().optional(),
  samlConfig: samlConfigBody.partial().optional(),
  twoFactor: twoFactorBody.optional(),
})

export type RegisterBody = z.output<typeof registerBody>
export type UpdateBody = z.output<typeof updateBody>
export type OidcConfigBody = z.output<typeof oidcConfigBody>
export type SamlConfigBody = z.output<typeof samlConfigBody>
