/**
 * @module
 * POST /account-info {accountId} (docs/social.md#provider-tokens): the
 * provider's current profile for one of the caller's linked accounts
 * (`accountId` is the provider's account id, as list-accounts shows it),
 * read with its access token (refreshed first when due); a provider without
 * a UserInfo endpoint (Apple) answers from the ID Token stored at sign-in.
 * Answers `{ user: { id, name, email, image, emailVerified }, data }`.
 */
import { decodeJwt } from 'jose'
import { z } from 'zod'
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { optionalSensitiveSessionMiddleware } from '../../session/middleware.js'
import { accountTokens } from '../../social/access-token.js'
import { fetchUserInfo } from '../../social/user-info.js'
import type { ConfiguredProvider } from '../../types/social.js'
import { accountOwner, ownedAccount } from './account-owner.js'

/**
 * @example
 * const { user, data } = await auth.api.accountInfo({ body: { accountId: '1234' }, headers: request.headers })
 */
export const accountInfo = defineEndpoint({
  method: 'POST',
  path: '/account-info',
  body: z.lazy(() =>
    z.object({
      accountId: z.string().min(1),
      /** Honoured on server-side `api` calls only. */
      userId: z.string().min(1).optional(),
    }),
  ),
  use: [optionalSensitiveSessionMiddleware],
  handler: async (ctx) => {
    const userId = accountOwner(ctx, ctx.session, ctx.body.userId)
    const account = await ownedAccount(ctx, userId, { accountId: ctx.body.accountId })
    const provider = ctx.auth.socialProviders.get(account.providerId)
    if (!provider) throw new AuthError(CoreErrors.ACCOUNT_PROVIDER_NOT_CONFIGURED)
    const outcome = await accountTokens(ctx, provider, account, { force: false })
    if (!outcome.ok || !outcome.tokens.accessToken) throw new AuthError(CoreErrors.FAILED_TO_GET_ACCESS_TOKEN)
    const { tokens } = outcome
    const info = await fetchUserInfo(
      provider,
      {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        idToken: null,
        tokenType: tokens.tokenType,
        accessTokenExpiresAt: tokens.accessTokenExpiresAt,
        refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
        scopes: tokens.scopes,
      },
      { clock: ctx.clock, logger: ctx.logger, idTokenClaims: storedClaims(provider, tokens.idToken), callbackParams: null },
    )
    if (!info) throw new AuthError(CoreErrors.FAILED_TO_GET_USER_INFO)
    return {
      user: { id: info.id, name: info.name, email: info.email, image: info.image, emailVerified: info.emailVerified },
      data: info.data,
    }
  },
})

/**
 * A provider with a UserInfo endpoint (or discovery) is asked afresh. One
 * without (Apple) has only the ID Token: its claims as they were checked at
 * sign-in, read back from our own encrypted column.
 */
function storedClaims(provider: ConfiguredProvider, idToken: string | null): Record<string, unknown> | null {
  const definition = provider.definition
  if (!idToken || definition.userInfoEndpoint || definition.discovery) return null
  try {
    return decodeJwt(idToken)
  } catch {
    return null
  }
}
