/**
 * @module
 * POST /oauth2/register (RFC 7591): registers a client and answers 201 with
 * its id, its secret (shown this once), `client_id_issued_at`,
 * `client_secret_expires_at` 0 and the registered metadata. Needs a
 * signed-in user, who then owns the client, unless
 * `allowDynamicClientRegistration` lets anyone register
 * (docs/oidc-provider.md#registering-clients). A server-side `api` call is
 * trusted like the application's own code.
 */
import { defineEndpoint, optionalSensitiveSessionMiddleware } from '@gatehouse/core'
import { OAuthError, OidcErrors } from '../errors.js'
import type { ResolvedOidcOptions } from '../options.js'
import { checkClientSettings, createClient } from '../services/client-registry.js'
import { oauthParams, type OAuthParams } from './params.js'

/** Fields RFC 7591 §2 defines that are kept as metadata and echoed back. */
const ECHOED_FIELDS = ['client_uri', 'contacts', 'tos_uri', 'policy_uri', 'software_id', 'software_version', 'application_type'] as const

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
      const metadata: Record<string, unknown> = {}
      for (const field of ECHOED_FIELDS) if (body[field] !== undefined) metadata[field] = body[field]
      const settings = checkClientSettings(options, {
        name: stringField(body, 'client_name'),
        icon: stringField(body, 'logo_uri'),
        redirectURLs: listField(body, 'redirect_uris'),
        postLogoutRedirectURLs: listField(body, 'post_logout_redirect_uris'),
        tokenEndpointAuthMethod: stringField(body, 'token_endpoint_auth_method') ?? 'client_secret_basic',
        grantTypes: listField(body, 'grant_types'),
        responseTypes: listField(body, 'response_types'),
        scope: stringField(body, 'scope'),
        metadata: Object.keys(metadata).length > 0 ? metadata : null,
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
