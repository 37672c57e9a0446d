/**
 * @module
 * POST /refresh-token {providerId, accountId?, userId?} (docs/social.md#provider-tokens):
 * refreshes the provider tokens of one of the caller's linked accounts now,
 * stores them encrypted and answers `{ tokenType, idToken, accessToken,
 * refreshToken, accessTokenExpiresAt, refreshTokenExpiresAt }`.
 */
import { z } from 'zod'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { optionalSessionMiddleware } from '../../session/middleware.js'
import { accountTokens } from '../../social/access-token.js'
import { accountOwner, ownedAccount, supportedProvider } from './account-owner.js'

/**
 * @example
 * const tokens = await auth.api.refreshToken({ body: { providerId: 'google', userId } })
 */
export const refreshToken = defineEndpoint({
  method: 'POST',
  path: '/refresh-token',
  body: z.object({
    providerId: z.string().min(1),
    accountId: z.string().min(1).optional(),
    /** Honoured on server-side `api` calls only. */
    userId: z.string().min(1).optional(),
  }),
  use: [optionalSessionMiddleware],
  handler: async (ctx) => {
    const userId = accountOwner(ctx, ctx.session, ctx.body.userId)
    const provider = supportedProvider(ctx, ctx.body.providerId)
    if (provider.definition.supportsRefresh === false) {
      throw new AuthError(CoreErrors.TOKEN_REFRESH_NOT_SUPPORTED, {
        message: `Provider ${provider.id} does not support token refreshing.`,
      })
    }
    const account = await ownedAccount(ctx, userId, { providerId: provider.id, accountId: ctx.body.accountId })
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
