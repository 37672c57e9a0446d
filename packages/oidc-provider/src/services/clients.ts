/**
 * @module
 * Clients: the configured trusted ones and the stored ones, seen through one
 * shape (`OAuthClient`), and client authentication at the token, revoke and
 * introspect endpoints (RFC 6749 §2.3). A confidential client presents its
 * secret in a Basic header or in the form body, whatever method it
 * registered (RFC 6749 §2.3.1 lets the server take both, and relying-party
 * libraries differ in which one they send), or only by the registered one
 * under `strictClientAuthMethod` (docs/oidc-provider.md#client-authentication).
 * A public client never presents a secret. A confidential client without a
 * valid secret is refused with 401, and with `WWW-Authenticate: Basic` when
 * it tried Basic (RFC 6749 §5.2).
 */
import type { Row, Store } from '@gatehouse/core'
import { OAuthError, OidcErrors } from '../errors.js'
import type { ClientType, OAuthClient, ResolvedOidcOptions, TokenEndpointAuthMethod, TrustedClient } from '../options.js'
import { digest, matchesDigest } from './secrets.js'

export interface StoredClientRow extends Row {
  id: string
  clientId: string
  clientSecret: string | null
  name: string
  icon: string | null
  metadata: Record<string, unknown> | null
  redirectURLs: string
  postLogoutRedirectURLs: string | null
  type: string
  tokenEndpointAuthMethod: string
  grantTypes: string
  responseTypes: string
  scope: string | null
  skipConsent: boolean
  disabled: boolean
  verified: boolean | null
  userId: string | null
  createdAt: Date
  updatedAt: Date
}

/** Confidential clients hold a secret; the others are public (RFC 6749 §2.1). */
export function isConfidential(type: ClientType): boolean {
  return type === 'web'
}

export function splitList(value: string | null | undefined, separator: string | RegExp): string[] {
  return value ? value.split(separator).filter((item) => item !== '') : []
}

export function fromRow(row: StoredClientRow): OAuthClient {
  return {
    clientId: row.clientId,
    name: row.name,
    icon: row.icon ?? null,
    redirectURLs: splitList(row.redirectURLs, ','),
    postLogoutRedirectURLs: splitList(row.postLogoutRedirectURLs, ','),
    type: row.type as ClientType,
    disabled: Boolean(row.disabled),
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod as TokenEndpointAuthMethod,
    grantTypes: splitList(row.grantTypes, ' '),
    responseTypes: splitList(row.responseTypes, ' '),
    scope: row.scope ?? null,
    metadata: row.metadata ?? null,
    userId: row.userId ?? null,
    skipConsent: Boolean(row.skipConsent),
    trusted: false,
    verified: Boolean(row.verified),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

function fromTrusted(client: TrustedClient): OAuthClient {
  return {
    clientId: client.clientId,
    name: client.name,
    icon: client.icon ?? null,
    redirectURLs: [...client.redirectURLs],
    postLogoutRedirectURLs: [...(client.postLogoutRedirectURLs ?? [])],
    type: client.type,
    disabled: false,
    tokenEndpointAuthMethod: isConfidential(client.type) ? 'client_secret_basic' : 'none',
    grantTypes: ['authorization_code', 'refresh_token'],
    responseTypes: ['code'],
    scope: null,
    metadata: client.metadata ?? null,
    userId: null,
    skipConsent: client.skipConsent ?? false,
    trusted: true,
    verified: true,
    createdAt: null,
    updatedAt: null,
  }
}

/** The trusted client or stored client with this id, or null. */
export async function findClient(db: Store, options: ResolvedOidcOptions, clientId: string): Promise<OAuthClient | null> {
  const trusted = options.trustedClients.find((client) => client.clientId === clientId)
  if (trusted) return fromTrusted(trusted)
  const row = await findClientRow(db, clientId)
  return row ? fromRow(row) : null
}

export function findClientRow(db: Store, clientId: string): Promise<StoredClientRow | null> {
  return db.findOne<StoredClientRow>({ model: 'oauthApplication', where: { field: 'clientId', value: clientId } })
}

async function secretMatches(db: Store, options: ResolvedOidcOptions, client: OAuthClient, secret: string): Promise<boolean> {
  if (client.trusted) {
    const configured = options.trustedClients.find((trusted) => trusted.clientId === client.clientId)?.clientSecret
    // Hash both sides so the comparison takes the same time whatever the lengths.
    return configured !== undefined && (await matchesDigest(secret, await digest(configured)))
  }
  const row = await findClientRow(db, client.clientId)
  return row?.clientSecret != null && (await matchesDigest(secret, row.clientSecret))
}

export interface ClientCredentials {
  readonly clientId: string | undefined
  readonly clientSecret: string | undefined
  readonly method: TokenEndpointAuthMethod
}

/**
 * The credentials a request presents, from a Basic header or the body
 * (RFC 6749 §2.3.1). Using both at once is refused (only one method per request).
 */
export function readClientCredentials(headers: Headers, body: Record<string, unknown>): ClientCredentials {
  const authorization = headers.get('authorization')
  const bodyId = typeof body.client_id === 'string' && body.client_id !== '' ? body.client_id : undefined
  const bodySecret = typeof body.client_secret === 'string' && body.client_secret !== '' ? body.client_secret : undefined
  if (authorization && /^basic /i.test(authorization)) {
    const basic = parseBasic(authorization.slice(6).trim())
    if (!basic) throw invalidClient(true, 'Malformed Basic credentials')
    if (bodySecret !== undefined) {
      throw new OAuthError(OidcErrors.INVALID_REQUEST, { message: 'Use only one client authentication method' })
    }
    if (bodyId !== undefined && bodyId !== basic.clientId) throw invalidClient(true)
    return { clientId: basic.clientId, clientSecret: basic.clientSecret, method: 'client_secret_basic' }
  }
  if (bodySecret !== undefined) return { clientId: bodyId, clientSecret: bodySecret, method: 'client_secret_post' }
  return { clientId: bodyId, clientSecret: undefined, method: 'none' }
}

/** RFC 6749 §2.3.1: id and secret are form-encoded, then joined with a colon and base64-encoded. */
function parseBasic(encoded: string): { clientId: string; clientSecret: string } | null {
  let decoded: string
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)))
  } catch {
    return null
  }
  const colon = decoded.indexOf(':')
  if (colon <= 0) return null
  try {
    const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '))
    const clientSecret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '))
    return clientSecret === '' ? null : { clientId, clientSecret }
  } catch {
    return null
  }
}

function invalidClient(basicTried: boolean, message?: string): OAuthError {
  return new OAuthError(OidcErrors.INVALID_CLIENT, {
    ...(message ? { message } : {}),
    // RFC 6749 §5.2: a failed Basic attempt answers with the scheme the client should use.
    ...(basicTried ? { headers: { 'www-authenticate': 'Basic realm="oauth2", charset="UTF-8"' } } : {}),
  })
}

/**
 * Authenticates the calling client. A public client (method `none`) names
 * itself with `client_id` and presents no secret; a confidential one must
 * present its secret, by either secret method unless
 * `strictClientAuthMethod` holds it to the one it registered (trusted
 * clients registered none, so they may use either).
 *
 * @example
 * const client = await authenticateClient(db, options, ctx.headers, body) // throws 401 invalid_client
 */
export async function authenticateClient(
  db: Store,
  options: ResolvedOidcOptions,
  headers: Headers,
  body: Record<string, unknown>,
): Promise<OAuthClient> {
  const credentials = readClientCredentials(headers, body)
  const basicTried = credentials.method === 'client_secret_basic'
  if (!credentials.clientId) throw invalidClient(basicTried, 'client_id is required')
  const client = await findClient(db, options, credentials.clientId)
  if (!client || client.disabled) {
    // Still hash the presented secret: an unknown id takes the time a wrong secret does.
    if (credentials.clientSecret !== undefined) await digest(credentials.clientSecret)
    throw invalidClient(basicTried)
  }
  if (!isConfidential(client.type) || client.tokenEndpointAuthMethod === 'none') {
    if (credentials.method !== 'none') throw invalidClient(basicTried, 'This client does not use a secret')
    return client
  }
  if (credentials.clientSecret === undefined) throw invalidClient(basicTried, 'Client authentication is required')
  // Either secret method carries the same secret, so accepting both costs nothing; the strict option is for policy.
  if (options.strictClientAuthMethod && !client.trusted && credentials.method !== client.tokenEndpointAuthMethod) {
    throw invalidClient(basicTried, `This client authenticates with ${client.tokenEndpointAuthMethod}`)
  }
  if (!(await secretMatches(db, options, client, credentials.clientSecret))) throw invalidClient(basicTried)
  return client
}
