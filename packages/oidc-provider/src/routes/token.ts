/**
 * @module
 * POST /oauth2/token (RFC 6749 §3.2, §4.1.3, §6), form or JSON. The client
 * authenticates first (a confidential one by Basic header or body secret, a
 * public one by none: services/clients.ts); then the grant runs:
 * authorization_code (single use, bound to client and redirect URI, PKCE)
 * or refresh_token (rotated on every use).
 * The reply carries an ID Token when the scope holds openid and a refresh
 * token only with offline_access; replies and errors are never cached
 * (RFC 6749 §5.1). No cookies are read, so the origin check does not apply.
 */
import { defineEndpoint, type User } from '@gatehouse/core'
import { OAuthError, OidcErrors } from '../errors.js'
import type { ResolvedOidcOptions } from '../options.js'
import { authenticateClient } from '../services/clients.js'
import { issueIdToken } from '../services/id-token.js'
import { exchangeCode, refreshTokens, type TokenOutcome } from '../services/tokens.js'
import { noStore, oauthParams, param, requiredParam } from './params.js'

const GRANT_TYPES = new Set(['authorization_code', 'refresh_token'])

export function oauth2Token(options: ResolvedOidcOptions) {
  return defineEndpoint({
    method: 'POST',
    path: '/oauth2/token',
    body: oauthParams,
    // Called cross-origin by browser-based public clients; reads no cookie (docs/oidc-provider.md#cross-origin-calls).
    metadata: { skipOriginCheck: true, cors: true },
    handler: async (ctx) => {
      noStore(ctx.responseHeaders)
      const body = ctx.body ?? {}
      const grantType = requiredParam(body, 'grant_type')
      if (!GRANT_TYPES.has(grantType)) throw new OAuthError(OidcErrors.UNSUPPORTED_GRANT_TYPE)
      const client = await authenticateClient(ctx.db, options, ctx.headers, body)
      // Each grant only for a client registered for it: a client without refresh_token gets no refresh tokens
      // and may not use one (docs/oidc-provider.md#refresh-token-rotation).
      if (!client.grantTypes.includes(grantType)) throw new OAuthError(OidcErrors.UNAUTHORIZED_CLIENT)

      let outcome: TokenOutcome
      if (grantType === 'authorization_code') {
        const code = requiredParam(body, 'code')
        const redirectURI = requiredParam(body, 'redirect_uri')
        outcome = await exchangeCode(ctx, options, client, { code, redirectURI, codeVerifier: param(body, 'code_verifier') })
      } else {
        const refreshToken = requiredParam(body, 'refresh_token')
        outcome = await refreshTokens(ctx, options, client, { refreshToken, scope: param(body, 'scope') })
      }
      if (!outcome.ok) {
        const definition = outcome.error === 'invalid_scope' ? OidcErrors.INVALID_SCOPE : OidcErrors.INVALID_GRANT
        throw new OAuthError(definition, { message: outcome.description })
      }
      const { tokens } = outcome
      const user = await ctx.db.findOne<User>({ model: 'user', where: { field: 'id', value: tokens.userId } })
      if (!user) throw new OAuthError(OidcErrors.INVALID_GRANT, { message: 'The user no longer exists' })
      return {
        access_token: tokens.accessToken,
        token_type: 'Bearer',
        expires_in: tokens.expiresIn,
        scope: tokens.scopes.join(' '),
        ...(tokens.refreshToken !== undefined ? { refresh_token: tokens.refreshToken } : {}),
        ...(tokens.scopes.includes('openid') ? { id_token: await issueIdToken(ctx, options, client, user, tokens) } : {}),
      }
    },
  })
}
