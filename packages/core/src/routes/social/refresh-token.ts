/**
 * @module
 * POST /refresh-token {providerId, accountId?, userId?} (docs/social.md#provider-tokens):
 * refreshes the provider tokens of one of the caller's linked accounts now,
 * stores them encrypted and answers `{ tokenType, idToken, accessToken,
 * refreshToken, accessTokenExpiresAt, refreshTokenExpiresAt }`.
 */
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { optionalSensitiveSessionMiddleware } from '../../session/middleware.js'
import { accountTokens } from '../../social/access-token.js'
import { providerAccount, providerAccountBody } from './account-owner.js'

/**
 * @example
 * const tokens = await auth.api.refreshToken({ body: { providerId: 'google', userId } })
 */
export const refreshToken = defineEndpoint({
  method: 'POST',
  path: '/refresh-token',
  body: providerAccountBody,
  use: [optionalSensitiveSessionMiddleware],
  handler: async (ctx) => {
    const { provider, account } = await providerAccount(ctx, ctx.session, ctx.body, { refresh: true })
    const outcome = await accountTokens(ctx, provider, account, { force: true })
    if (!outcome.ok) throw new AuthError(CoreErrors.FAILED_TO_REFRESH_ACCESS_TOKEN)
    const { tokens } = outcome
    return {
      tokenType: tokens.tokenType,
      idToken: tokens.idToken,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
    }
  },
})
