/**
 * @module
 * Creating and changing stored clients, for dynamic registration (RFC 7591)
 * and the server-side `api` (docs/oidc-provider.md#registering-clients). The
 * metadata rules: redirect URIs are required for the code grant and must each
 * pass `checkRedirectURI`; grant and response types must agree (the code
 * grant needs the code response type and back); only the code grant, its
 * refresh, and the three token endpoint methods are supported. The name is
 * at most 100 characters without control characters, and the logo an https
 * URL (stored as parsed). The secret is shown once and stored as a digest.
 */
import type { Clock, Random, Store } from '@gatehouse/core'
import { OAuthError, OidcErrors } from '../errors.js'
import type { ClientType, OAuthClient, ResolvedOidcOptions, TokenEndpointAuthMethod } from '../options.js'
import { fromRow, isConfidential, type StoredClientRow } from './clients.js'
import { checkMetadataURI, checkRedirectURI, type RedirectURIHolder } from './redirect-uris.js'
import { CLIENT_SECRET_LENGTH, digest, generateOpaqueToken } from './secrets.js'

const AUTH_METHODS: readonly TokenEndpointAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post']
const GRANT_TYPES = ['authorization_code', 'refresh_token']
const RESPONSE_TYPES = ['code']

/** A client's settings, checked. */
export interface ClientSettings {
  readonly name: string
  readonly icon: string | null
  readonly redirectURLs: readonly string[]
  readonly postLogoutRedirectURLs: readonly string[]
  readonly type: ClientType
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod
  readonly grantTypes: readonly string[]
  readonly responseTypes: readonly string[]
  readonly scope: string | null
  readonly metadata: Record<string, unknown> | null
  readonly skipConsent: boolean
  readonly verified: boolean
}

/** The settings as given, before checks: registration's snake_case fields are mapped onto these. */
export interface ClientInput {
  readonly name?: string | undefined
  readonly icon?: string | null | undefined
  readonly redirectURLs?: readonly string[] | undefined
  readonly postLogoutRedirectURLs?: readonly string[] | undefined
  readonly type?: ClientType | undefined
  readonly tokenEndpointAuthMethod?: string | undefined
  readonly grantTypes?: readonly string[] | undefined
  readonly responseTypes?: readonly string[] | undefined
  readonly scope?: string | null | undefined
  readonly metadata?: Record<string, unknown> | null | undefined
  readonly skipConsent?: boolean | undefined
  /** Operator-registered (default) or self-registered (false): docs/oidc-provider.md#verified-and-self-registered-clients. */
  readonly verified?: boolean | undefined
}

/** A name longer than this is refused: it is shown on the consent page, where it should not crowd out the rest. */
export const MAX_CLIENT_NAME_LENGTH = 100
/** C0 and C1 controls, DEL, and the bidirectional overrides that make a name read differently from its characters. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

const metadataError = (message: string) => new OAuthError(OidcErrors.INVALID_CLIENT_METADATA, { message })
const redirectError = (message: string) => new OAuthError(OidcErrors.INVALID_REDIRECT_URI, { message })

function checkURIs(uris: readonly string[], label: string, holder: RedirectURIHolder): void {
  for (const uri of uris) {
    const check = checkRedirectURI(uri, holder)
    if (!check.ok) throw redirectError(`${label}: ${check.reason}`)
  }
}

/**
 * Checks a client's settings; throws `invalid_client_metadata` or
 * `invalid_redirect_uri` (RFC 7591 §3.2.2).
 *
 * @example
 * checkClientSettings(options, { name: 'RP', redirectURLs: ['https://rp.example.com/cb'] })
 */
export function checkClientSettings(options: ResolvedOidcOptions, input: ClientInput): ClientSettings {
  const method = input.tokenEndpointAuthMethod ?? (input.type && !isConfidential(input.type) ? 'none' : 'client_secret_basic')
  if (!(AUTH_METHODS as readonly string[]).includes(method)) {
    throw metadataError(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`)
  }
  const tokenEndpointAuthMethod = method as TokenEndpointAuthMethod
  const type: ClientType = input.type ?? (tokenEndpointAuthMethod === 'none' ? 'public' : 'web')
  if (isConfidential(type) !== (tokenEndpointAuthMethod !== 'none')) {
    throw metadataError('A web client authenticates with a secret; public clients use none')
  }

  const grantTypes = [...new Set(input.grantTypes ?? ['authorization_code'])]
  const responseTypes = [...new Set(input.responseTypes ?? (grantTypes.includes('authorization_code') ? ['code'] : []))]
  if (grantTypes.includes('implicit') || responseTypes.includes('token')) throw metadataError('The implicit grant is not supported')
  const grant = grantTypes.find((value) => !GRANT_TYPES.includes(value))
  if (grant !== undefined) throw metadataError(`Unsupported grant type: ${grant}`)
  const response = responseTypes.find((value) => !RESPONSE_TYPES.includes(value))
  if (response !== undefined) throw metadataError(`Unsupported response type: ${response}`)
  // RFC 7591 §2.1: the code grant and the code response type go together.
  if (grantTypes.includes('authorization_code') !== responseTypes.includes('code')) {
    throw metadataError('The authorization_code grant type requires the code response type, and back')
  }

  const redirectURLs = [...(input.redirectURLs ?? [])]
  if (grantTypes.includes('authorization_code') && redirectURLs.length === 0) {
    throw redirectError('redirect_uris are required for the authorization_code grant')
  }
  const holder: RedirectURIHolder = { type, isPublic: tokenEndpointAuthMethod === 'none' }
  checkURIs(redirectURLs, 'redirect_uris', holder)
  const postLogoutRedirectURLs = [...(input.postLogoutRedirectURLs ?? [])]
  checkURIs(postLogoutRedirectURLs, 'post_logout_redirect_uris', holder)

  const scope = input.scope?.trim() || null
  if (scope !== null) {
    const unknown = scope.split(' ').find((value) => value !== '' && !options.scopes.includes(value))
    if (unknown !== undefined) throw metadataError(`Unsupported scope: ${unknown}`)
  }
  const name = input.name?.trim()
  if (name !== undefined && name.length > MAX_CLIENT_NAME_LENGTH) throw metadataError(`client_name must be at most ${MAX_CLIENT_NAME_LENGTH} characters`)
  if (name !== undefined && CONTROL_CHARACTERS.test(name)) throw metadataError('client_name must not contain control characters')
  let icon: string | null = null
  if (input.icon) {
    const checked = checkMetadataURI(input.icon)
    if (!checked.ok) throw metadataError(`logo_uri ${checked.reason}`)
    icon = checked.href
  }
  return {
    name: name || 'Unnamed client',
    icon,
    redirectURLs,
    postLogoutRedirectURLs,
    type,
    tokenEndpointAuthMethod,
    grantTypes,
    responseTypes,
    scope,
    metadata: input.metadata ?? null,
    skipConsent: input.skipConsent ?? false,
    verified: input.verified ?? true,
  }
}

interface Ctx {
  readonly db: Store
  readonly clock: Clock
  readonly random: Random
}

function columns(settings: ClientSettings) {
  return {
    name: settings.name,
    icon: settings.icon,
    metadata: settings.metadata,
    redirectURLs: settings.redirectURLs.join(','),
    postLogoutRedirectURLs: settings.postLogoutRedirectURLs.length > 0 ? settings.postLogoutRedirectURLs.join(',') : null,
    type: settings.type,
    tokenEndpointAuthMethod: settings.tokenEndpointAuthMethod,
    grantTypes: settings.grantTypes.join(' '),
    responseTypes: settings.responseTypes.join(' '),
    scope: settings.scope,
    skipConsent: settings.skipConsent,
    verified: settings.verified,
  }
}

/** Stores a new client; the secret (for confidential clients) is returned this once. */
export async function createClient(
  ctx: Ctx,
  settings: ClientSettings,
  userId: string | null,
): Promise<{ client: OAuthClient; clientSecret: string | undefined }> {
  const clientId = generateOpaqueToken(ctx.random)
  const clientSecret = isConfidential(settings.type) ? generateOpaqueToken(ctx.random, CLIENT_SECRET_LENGTH) : undefined
  const row = await ctx.db.create<StoredClientRow>({
    model: 'oauthApplication',
    data: {
      ...columns(settings),
      clientId,
      clientSecret: clientSecret === undefined ? null : await digest(clientSecret),
      disabled: false,
      userId,
    },
  })
  return { client: fromRow(row), clientSecret }
}

/** Replaces a stored client's settings. */
export async function updateClient(db: Store, clientId: string, settings: ClientSettings, disabled: boolean | undefined): Promise<OAuthClient | null> {
  const row = await db.update<StoredClientRow>({
    model: 'oauthApplication',
    where: { field: 'clientId', value: clientId },
    update: { ...columns(settings), ...(disabled !== undefined ? { disabled } : {}) },
  })
  return row ? fromRow(row) : null
}

/** A fresh secret for a confidential client; the old one stops working at once. */
export async function rotateClientSecret(ctx: Ctx, clientId: string): Promise<string | null> {
  const clientSecret = generateOpaqueToken(ctx.random, CLIENT_SECRET_LENGTH)
  const row = await ctx.db.update<StoredClientRow>({
    model: 'oauthApplication',
    where: [
      { field: 'clientId', value: clientId },
      { field: 'type', value: 'web' },
    ],
    update: { clientSecret: await digest(clientSecret) },
  })
  return row ? clientSecret : null
}

/** Deletes a client with its tokens and consents, in one transaction. */
export async function deleteClient(db: Store, clientId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await tx.findOne({ model: 'oauthApplication', where: { field: 'clientId', value: clientId } })
    if (!row) return false
    await tx.deleteMany({ model: 'oauthAccessToken', where: { field: 'clientId', value: clientId } })
    await tx.deleteMany({ model: 'oauthConsent', where: { field: 'clientId', value: clientId } })
    await tx.delete({ model: 'oauthApplication', where: { field: 'clientId', value: clientId } })
    return true
  })
}

/** What `api` answers for a client: the settings, never the secret. */
export function clientView(client: OAuthClient) {
  return {
    clientId: client.clientId,
    name: client.name,
    icon: client.icon,
    redirectURLs: [...client.redirectURLs],
    postLogoutRedirectURLs: [...client.postLogoutRedirectURLs],
    type: client.type,
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
    grantTypes: [...client.grantTypes],
    responseTypes: [...client.responseTypes],
    scope: client.scope,
    metadata: client.metadata,
    skipConsent: client.skipConsent,
    verified: client.verified,
    disabled: client.disabled,
    userId: client.userId,
    createdAt: client.createdAt,
    updatedAt: client.updatedAt,
  }
}
