/**
 * @module
 * Reading the profile through the provider's `getUserInfo`, with its
 * failures (a provider that is down, an unexpected answer) turned into null
 * and logged without tokens or profile data.
 */
import type { Logger } from '../logging/logger.js'
import { normalizeEmail } from '../accounts/email.js'
import { authorizationServer, providerRequestContext } from './protocol.js'
import type { ConfiguredProvider, ProviderTokens, ProviderUserInfo } from '../types/social.js'

/**
 * @example
 * const info = await fetchUserInfo(provider, tokens, { clock, logger, idTokenClaims, callbackParams: null })
 * if (!info) return fail('unable_to_get_user_info')
 */
export async function fetchUserInfo(
  provider: ConfiguredProvider,
  tokens: ProviderTokens,
  args: {
    clock: { now(): Date }
    logger: Logger
    idTokenClaims: Readonly<Record<string, unknown>> | null
    callbackParams: URLSearchParams | null
  },
): Promise<ProviderUserInfo | null> {
  try {
    const server = await authorizationServer(provider, args.clock)
    const ctx = providerRequestContext({
      clock: args.clock,
      idTokenClaims: args.idTokenClaims,
      userInfoEndpoint: server.userinfo_endpoint ?? provider.definition.userInfoEndpoint ?? null,
      callbackParams: args.callbackParams,
    })
    const info = await provider.definition.getUserInfo(tokens, ctx)
    if (!info || typeof info.id !== 'string' || info.id === '') return null
    return info
  } catch (error) {
    args.logger.warn('provider user info failed', { provider: provider.id, error: error instanceof Error ? error.name : typeof error })
    return null
  }
}

/** The profile with its email normalised, or null when it has no valid email. */
export function withEmail(info: ProviderUserInfo): (ProviderUserInfo & { email: string }) | null {
  const email = normalizeEmail(info.email)
  return email === null ? null : { ...info, email }
}

/** Tokens handed over with an ID Token (`idToken: { token, accessToken?, refreshToken?, expiresAt? }`). */
export function idTokenTokens(idToken: { token: string; accessToken?: string | undefined; refreshToken?: string | undefined; expiresAt?: number | undefined }, scopes: readonly string[]): ProviderTokens {
  return {
    accessToken: idToken.accessToken ?? null,
    refreshToken: idToken.refreshToken ?? null,
    idToken: idToken.token,
    tokenType: idToken.accessToken ? 'bearer' : null,
    accessTokenExpiresAt: idToken.expiresAt === undefined ? null : new Date(idToken.expiresAt),
    refreshTokenExpiresAt: null,
    scopes,
  }
}
