/**
 * @module
 * Whose accounts the token routes act on (docs/social.md#provider-tokens):
 * over HTTP always the caller's own, from the session (401 without one; a
 * `userId` in the body is ignored, so nobody can name another user's
 * account); on a server-side `api` call the body's `userId`, else the
 * session's, else 400 "Either userId or session is required".
 *
 * The routes read that session from the store, never the cookie cache: a
 * session revoked elsewhere keeps a valid cache cookie for
 * `cookieCache.maxAge`, and must not fetch provider tokens meanwhile.
 */
import { z } from 'zod'
import type { Row } from '../../db/adapter.js'
import type { EndpointContext } from '../../endpoint/context.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import type { SocialAccount } from '../../social/accounts.js'
import type { ConfiguredProvider } from '../../types/social.js'
import type { SessionWithUser } from '../../types/rows.js'

export function accountOwner(ctx: Pick<EndpointContext, 'isServerCall'>, session: SessionWithUser | null, bodyUserId: string | undefined): string {
  if (!ctx.isServerCall) {
    if (!session) throw new AuthError(CoreErrors.UNAUTHORIZED)
    return session.user.id
  }
  const userId = bodyUserId ?? session?.user.id
  if (!userId) throw new AuthError(CoreErrors.USER_ID_OR_SESSION_REQUIRED)
  return userId
}

/** One of the owner's accounts by provider (and the provider's account id); 400 "Account not found" otherwise. */
export async function ownedAccount(
  ctx: Pick<EndpointContext, 'db'>,
  userId: string,
  where: { providerId?: string; accountId?: string },
): Promise<SocialAccount> {
  const account = await ctx.db.findOne<SocialAccount & Row>({
    model: 'account',
    where: [
      { field: 'userId', value: userId },
      ...(where.providerId === undefined ? [] : [{ field: 'providerId', value: where.providerId }]),
      ...(where.accountId === undefined ? [] : [{ field: 'accountId', value: where.accountId }]),
    ],
  })
  if (!account) throw new AuthError(CoreErrors.ACCOUNT_NOT_FOUND)
  return account
}

/** The configured provider of a token route's `providerId`: "Provider {id} is not supported." otherwise. */
export function supportedProvider(ctx: Pick<EndpointContext, 'auth'>, providerId: string): ConfiguredProvider {
  const provider = ctx.auth.socialProviders.get(providerId)
  if (!provider) throw new AuthError(CoreErrors.PROVIDER_NOT_SUPPORTED, { message: `Provider ${providerId} is not supported.` })
  return provider
}

/** Body of get-access-token and refresh-token. */
export const providerAccountBody = z.lazy(() =>
  z.object({
    providerId: z.string().min(1),
    accountId: z.string().min(1).optional(),
    /** Honoured on server-side `api` calls only. */
    userId: z.string().min(1).optional(),
  }),
)

/**
 * The preamble of get-access-token and refresh-token: the owner, the
 * provider, then the owner's account there. `refresh` refuses a provider that
 * cannot refresh before any account is looked up.
 */
export async function providerAccount(
  ctx: Pick<EndpointContext, 'isServerCall' | 'auth' | 'db'>,
  session: SessionWithUser | null,
  body: z.infer<typeof providerAccountBody>,
  options: { refresh: boolean },
): Promise<{ provider: ConfiguredProvider; account: SocialAccount }> {
  const userId = accountOwner(ctx, session, body.userId)
  const provider = supportedProvider(ctx, body.providerId)
  if (options.refresh && provider.definition.supportsRefresh === false) {
    throw new AuthError(CoreErrors.TOKEN_REFRESH_NOT_SUPPORTED, {
      message: `Provider ${provider.id} does not support token refreshing.`,
    })
  }
  const account = await ownedAccount(ctx, userId, { providerId: provider.id, accountId: body.accountId })
  return { provider, account }
}
