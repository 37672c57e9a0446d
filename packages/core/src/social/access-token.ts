/**
 * @module
 * A linked account's provider tokens, decrypted, refreshed when due
 * (docs/social.md#provider-tokens): get-access-token refreshes when the
 * access token expires within 5 seconds and a refresh token is stored;
 * refresh-token always refreshes.
 *
 * Concurrent refreshes of one account in this process share one request to
 * the provider: many providers rotate refresh tokens and treat a second use
 * of the old one as theft, revoking the grant. Across processes the write is
 * a compare-and-set on the stored refresh token: a process that lost the
 * race finds the winner's tokens and returns those.
 */
import type { Row } from '../db/adapter.js'
import type { AuthContext } from '../endpoint/context.js'
import type { ConfiguredProvider, ProviderTokens } from '../types/social.js'
import { findSocialAccount, tokenColumns, type SocialAccount } from './accounts.js'
import { providerRequestContext, refreshTokens, splitScope } from './protocol.js'
import { decryptToken } from './token-crypto.js'

/** Refresh when the access token expires within this many milliseconds (docs/social.md#constants). */
export const REFRESH_MARGIN_MS = 5000

/** An account's tokens as get-access-token answers them: the provider's, with the scopes as a list of its own. */
export interface AccountTokens extends Omit<ProviderTokens, 'scopes'> {
  readonly scopes: string[]
}

export type TokenOutcome =
  | { readonly ok: true; readonly tokens: AccountTokens }
  | { readonly ok: false; readonly reason: 'refresh_unsupported' | 'no_refresh_token' | 'refresh_failed' | 'no_valid_token' }

type Ctx = Pick<AuthContext, 'db' | 'secrets' | 'clock' | 'logger' | 'options'>

/** The account's stored tokens, decrypted. */
export async function readAccountTokens(ctx: Pick<AuthContext, 'secrets'>, account: SocialAccount): Promise<AccountTokens> {
  const binding = { providerId: account.providerId, accountId: account.accountId }
  return {
    accessToken: await decryptToken(ctx.secrets, 'accessToken', binding, account.accessToken),
    refreshToken: await decryptToken(ctx.secrets, 'refreshToken', binding, account.refreshToken),
    idToken: await decryptToken(ctx.secrets, 'idToken', binding, account.idToken),
    tokenType: null,
    accessTokenExpiresAt: account.accessTokenExpiresAt,
    refreshTokenExpiresAt: account.refreshTokenExpiresAt,
    scopes: account.scope ? splitScope(account.scope) : [],
  }
}

const inFlight = new WeakMap<object, Map<string, Promise<TokenOutcome>>>()

/**
 * @example
 * const outcome = await accountTokens(ctx, provider, account, { force: false })
 * if (!outcome.ok) throw new AuthError(CoreErrors.FAILED_TO_GET_ACCESS_TOKEN)
 */
export async function accountTokens(ctx: Ctx, provider: ConfiguredProvider, account: SocialAccount, options: { force: boolean }): Promise<TokenOutcome> {
  const current = await readAccountTokens(ctx, account)
  const now = ctx.clock.now().getTime()
  const expiresAt = current.accessTokenExpiresAt?.getTime()
  const due = expiresAt !== undefined && expiresAt - now < REFRESH_MARGIN_MS
  if (!options.force && !due) {
    return current.accessToken ? { ok: true, tokens: current } : { ok: false, reason: 'no_valid_token' }
  }
  if (provider.definition.supportsRefresh === false) {
    if (options.force) return { ok: false, reason: 'refresh_unsupported' }
    return stillValid(current, now)
  }
  if (!current.refreshToken) return options.force ? { ok: false, reason: 'no_refresh_token' } : stillValid(current, now)

  let flights = inFlight.get(ctx.db.adapter)
  if (!flights) {
    flights = new Map()
    inFlight.set(ctx.db.adapter, flights)
  }
  const running = flights.get(account.id)
  if (running) return running
  const flight = refresh(ctx, provider, account, current).finally(() => flights.delete(account.id))
  flights.set(account.id, flight)
  return flight
}

/** Not refreshable: the stored token is still good only if it has not expired yet. */
function stillValid(current: AccountTokens, now: number): TokenOutcome {
  const expiresAt = current.accessTokenExpiresAt?.getTime()
  if (current.accessToken && (expiresAt === undefined || expiresAt > now)) return { ok: true, tokens: current }
  return { ok: false, reason: 'no_valid_token' }
}

async function refresh(ctx: Ctx, provider: ConfiguredProvider, account: SocialAccount, current: AccountTokens): Promise<TokenOutcome> {
  let exchanged
  try {
    exchanged = await refreshTokens(
      provider,
      current.refreshToken as string,
      current.scopes,
      providerRequestContext({ clock: ctx.clock, idTokenClaims: null, userInfoEndpoint: null, callbackParams: null }),
      ctx.clock,
    )
  } catch (error) {
    ctx.logger.warn('provider token refresh failed', { provider: provider.id, error: error instanceof Error ? error.name : typeof error })
    return { ok: false, reason: 'refresh_failed' }
  }
  const columns = await tokenColumns(ctx, account.providerId, account.accountId, exchanged.tokens)
  const updated = await ctx.db.update<SocialAccount & Row>({
    model: 'account',
    where: [
      { field: 'id', value: account.id },
      { field: 'refreshToken', value: account.refreshToken },
    ],
    update: columns,
  })
  if (!updated) {
    // Another process refreshed first; its tokens are the current ones.
    const latest = await findSocialAccount(ctx.db, account.providerId, account.accountId)
    if (!latest) return { ok: false, reason: 'refresh_failed' }
    return { ok: true, tokens: await readAccountTokens(ctx, latest) }
  }
  return { ok: true, tokens: { ...(await readAccountTokens(ctx, updated)), tokenType: exchanged.tokens.tokenType } }
}
