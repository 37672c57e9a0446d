/**
 * @module
 * POST /oauth2/register (RFC 7591): registers a client and answers 201 with
 * its id, its secret (shown this once), `client_id_issued_at`,
 * `client_secret_expires_at` 0 and the registered metadata. Needs a
 * signed-in user, who then owns the client, unless
 * `allowDynamicClientRegistration` lets anyone register
 * (docs/oidc-provider.md#registering-clients). A server-side `api` call is
 * trusted like the application's own code, and registers a verified client;
 * over HTTP the client is self-registered (unverified).
 *
 * Every URI of the metadata is checked (RFC 7591 §2, §5): redirect URIs by
 * the redirect rules (`invalid_redirect_uri`), `client_uri`, `policy_uri`,
 * `tos_uri` and `logo_uri` as https URLs without whitespace or control
 * characters, stored as parsed; `contacts` is capped; anything else of the
 * wrong shape is `invalid_client_metadata`. A consent page or an operator's
 * console may put these values in links and images, so `javascript:`,
 * `data:` and markup must never get stored.
 */
import { defineEndpoint, optionalSensitiveSessionMiddleware } from '@gatehouse/core'
import { OAuthError, OidcErrors } from '../errors.js'
import type { ResolvedOidcOptions } from '../options.js'
import { checkClientSettings, createClient } from '../services/client-registry.js'
import { checkMetadataURI } from '../services/redirect-uris.js'
import { oauthParams, type OAuthParams } from './params.js'

/** URIs of RFC 7591 §2 kept as metadata and echoed back, each checked as an https URL and stored as parsed. */
const URI_FIELDS = ['client_uri', 'tos_uri', 'policy_uri'] as const
/** Short strings of RFC 7591 §2 kept as metadata and echoed back. */
const TEXT_FIELDS = ['software_id', 'software_version'] as const
const MAX_TEXT_LENGTH = 255
/** RFC 7591 §2 `contacts`: a few addresses are plenty; each the length of an email address at most. */
const MAX_CONTACTS = 5
const MAX_CONTACT_LENGTH = 254
/** OpenID Connect Dynamic Client Registration §2: `web` (the default) or `native`. */
const APPLICATION_TYPES = ['web', 'native'] as const
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f]/

const invalid = (message: string) => new OAuthError(OidcErrors.INVALID_CLIENT_METADATA, { message })

function stringField(body: OAuthParams, name: string): string | undefined {
  const value = body[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw invalid(`${name} must be a string`)
  return value
}

function listField(body: OAuthParams, name: string): string[] | undefined {
  const value = body[name]
  if (value === undefined || value === null) return undefined
  if (!Array.isArray(value) || !value.every((item): item is string => typeof item === 'string')) {
    throw invalid(`${name} must be an array of strings`)
  }
  return value
}

/** The RFC 7591 metadata kept beside the columns, each field checked; the URIs in their parsed form. */
function checkedMetadata(body: OAuthParams): Record<string, unknown> {
  const metadata: Record<string, unknown> = {}
  for (const field of URI_FIELDS) {
    const value = stringField(body, field)
    if (value === undefined) continue
    const checked = checkMetadataURI(value)
    if (!checked.ok) throw invalid(`${field} ${checked.reason}`)
    metadata[field] = checked.href
  }
  for (const field of TEXT_FIELDS) {
    const value = stringField(body, field)
    if (value === undefined) continue
    if (value.length > MAX_TEXT_LENGTH || UNSAFE_TEXT.test(value)) throw invalid(`${field} must be at most ${MAX_TEXT_LENGTH} printable characters`)
    metadata[field] = value
  }
  const contacts = listField(body, 'contacts')
  if (contacts !== undefined) {
    if (contacts.length > MAX_CONTACTS) throw invalid(`contacts may hold at most ${MAX_CONTACTS} entries`)
    if (contacts.some((contact) => contact.length > MAX_CONTACT_LENGTH || UNSAFE_TEXT.test(contact))) {
      throw invalid(`each contact must be at most ${MAX_CONTACT_LENGTH} printable characters`)
    }
    metadata.contacts = contacts
  }
  const applicationType = stringField(body, 'application_type')
  if (applicationType !== undefined) {
    if (!(APPLICATION_TYPES as readonly string[]).includes(applicationType)) throw invalid('application_type must be web or native')
    metadata.application_type = applicationType
  }
  return metadata
}

export function oauth2Register(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/oauth2/register',
    body: oauthParams,
    use: [optionalSensitiveSessionMiddleware],
    handler: async (ctx) => {
      if (!ctx.session && !options.allowDynamicClientRegistration && !ctx.isServerCall) {
        throw new OAuthError(OidcErrors.REGISTRATION_NOT_ALLOWED)
      }
      const body = ctx.body ?? {}
      const metadata = checkedMetadata(body)
      const method = stringField(body, 'token_endpoint_auth_method') ?? 'client_secret_basic'
      const settings = checkClientSettings(options, {
        name: stringField(body, 'client_name'),
        icon: stringField(body, 'logo_uri'),
        redirectURLs: listField(body, 'redirect_uris'),
        postLogoutRedirectURLs: listField(body, 'post_logout_redirect_uris'),
        tokenEndpointAuthMethod: method,
        // A native app without a secret gets RFC 8252's redirect rules (loopback on any port, private-use schemes).
        ...(metadata.application_type === 'native' && method === 'none' ? { type: 'native' as const } : {}),
        grantTypes: listField(body, 'grant_types'),
        responseTypes: listField(body, 'response_types'),
        scope: stringField(body, 'scope'),
        metadata: Object.keys(metadata).length > 0 ? metadata : null,
        // Over HTTP the registrant is anyone with a session (or anyone at all): its name and URIs are its own claim.
        verified: ctx.isServerCall,
      })
      const { client, clientSecret } = await createClient(ctx, settings, ctx.session?.user.id ?? null)
      const reply = {
        client_id: client.clientId,
        ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}),
        client_id_issued_at: Math.floor((client.createdAt ?? ctx.clock.now()).getTime() / 1000),
        client_secret_expires_at: 0,
        client_name: client.name,
        redirect_uris: client.redirectURLs,
        token_endpoint_auth_method: client.tokenEndpointAuthMethod,
        grant_types: client.grantTypes,
        response_types: client.responseTypes,
        ...(client.postLogoutRedirectURLs.length > 0 ? { post_logout_redirect_uris: client.postLogoutRedirectURLs } : {}),
        ...(client.icon ? { logo_uri: client.icon } : {}),
        ...(client.scope ? { scope: client.scope } : {}),
        ...metadata,
      }
      return new Response(JSON.stringify(reply), {
        status: 201,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' },
      })
    },
  })
}
