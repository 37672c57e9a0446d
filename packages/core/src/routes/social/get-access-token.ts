/**
 * @module
 * POST /get-access-token {providerId, accountId?, userId?} (docs/social.md#provider-tokens):
 * a valid access token for one of the caller's linked accounts, refreshed
 * first when it expires within 5 seconds and a refresh token is stored.
 * Answers `{ accessToken, accessTokenExpiresAt, scopes, idToken }`.
 */
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { optionalSensitiveSessionMiddleware } from '../../session/middleware.js'
import { accountTokens } from '../../social/access-token.js'
import { providerAccount, providerAccountBody } from './account-owner.js'

/**
 * @example
 * const { accessToken } = await auth.api.getAccessToken({ body: { providerId: 'github' }, headers: request.headers })
 */
export const getAccessToken = defineEndpoint({
  method: 'POST',
  path: '/get-access-token',
  body: providerAccountBody,
  use: [optionalSensitiveSessionMiddleware],
  handler: async (ctx) => {
    const { provider, account } = await providerAccount(ctx, ctx.session, ctx.body, { refresh: false })
    const outcome = await accountTokens(ctx, provider, account, { force: false })
    if (!outcome.ok || !outcome.tokens.accessToken) throw new AuthError(CoreErrors.FAILED_TO_GET_ACCESS_TOKEN)
    const { tokens } = outcome
    return {
      accessToken: tokens.accessToken,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      scopes: tokens.scopes,
      idToken: tokens.idToken,
    }
  },
})
