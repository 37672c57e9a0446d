/**
 * @module
 * POST /get-access-token {providerId, accountId?, userId?} (docs/social.md#provider-tokens):
 * a valid access token for one of the caller's linked accounts, refreshed
 * first when it expires within 5 seconds and a refresh token is stored.
 * Answers `{ accessToken, accessTokenExpiresAt, scopes, idToken }`.
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
 * const { accessToken } = await auth.api.getAccessToken({ body: { providerId: 'github' }, headers: request.headers })
 */
export const getAccessToken = defineEndpoint({
  method: 'POST',
  path: '/get-access-token',
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
    const account = await ownedAccount(ctx, userId, { providerId: provider.id, accountId: ctx.body.accountId })
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
