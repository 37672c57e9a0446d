/**
 * @module
 * GET and POST /oauth2/userinfo (OpenID Connect Core §5.3) with a Bearer
 * token in the Authorization header (RFC 6750 §2.1) or, on POST, in the form
 * body (§2.2), never the query: the claims the token's scopes allow. A
 * missing, unknown, revoked or expired token answers 401 `invalid_token`
 * with a `WWW-Authenticate` challenge (RFC 6750 §3; the bare `Bearer` when
 * no token was sent at all), a token sent both ways 400 `invalid_request`.
 */
import { defineEndpoint, type User } from '@gatehouse/core'
import { OAuthError, OidcErrors } from '../errors.js'
import type { ResolvedOidcOptions } from '../options.js'
import { userClaims } from '../services/claims.js'
import { findClient } from '../services/clients.js'
import { findAccessToken } from '../services/tokens.js'
import { oauthParams, param } from './params.js'

function invalidToken(description: string): OAuthError {
  return new OAuthError(OidcErrors.INVALID_TOKEN, {
    message: description,
    headers: { 'www-authenticate': `Bearer error="invalid_token", error_description="${description}"` },
  })
}

function bearerToken(headers: Headers): string | undefined {
  const authorization = headers.get('authorization')
  const match = authorization ? /^Bearer +([\x21-\x7e]+)$/i.exec(authorization.trim()) : null
  return match?.[1]
}

export function oauth2UserInfo(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: ['GET', 'POST'],
    path: '/oauth2/userinfo',
    body: oauthParams,
    // Called cross-origin by browser-based public clients; reads no cookie (docs/oidc-provider.md#cross-origin-calls).
    metadata: { skipOriginCheck: true, cors: true },
    handler: async (ctx) => {
      ctx.responseHeaders.set('cache-control', 'no-store')
      const formBody = (ctx.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded')
      const inHeader = bearerToken(ctx.headers)
      // Never from the query (RFC 6750 §2.3 is optional and leaks tokens into logs): header or form body only.
      const inBody = ctx.method === 'POST' && formBody ? param(ctx.body, 'access_token') : undefined
      if (inHeader !== undefined && inBody !== undefined) {
        // RFC 6750 §2: a client must not use more than one method per request.
        throw new OAuthError(OidcErrors.INVALID_REQUEST, {
          message: 'Send the access token in the header or the body, not both',
          headers: { 'www-authenticate': 'Bearer error="invalid_request"' },
        })
      }
      const token = inHeader ?? inBody
      if (!token) {
        // RFC 6750 §3.1: a request without credentials gets the bare challenge, no error code in it.
        throw new OAuthError(OidcErrors.INVALID_TOKEN, { message: 'A Bearer access token is required', headers: { 'www-authenticate': 'Bearer' } })
      }
      const row = await findAccessToken(ctx, token)
      if (!row) throw invalidToken('The access token is invalid or has expired')
      const scopes = row.scopes.split(' ')
      if (!scopes.includes('openid')) {
        throw new OAuthError(OidcErrors.INSUFFICIENT_SCOPE, {
          headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="openid"' },
        })
      }
      const user = await ctx.db.findOne<User>({ model: 'user', where: { field: 'id', value: row.userId } })
      const client = await findClient(ctx.db, options, row.clientId)
      if (!user || !client || client.disabled) throw invalidToken('The access token is invalid or has expired')
      return userClaims(options, user, scopes, client)
    },
  })
}
