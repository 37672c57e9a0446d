/**
 * @module
 * The ID Token (OpenID Connect Core §2, §3.1.3.6, §12.2): issued with
 * every token reply whose scope holds `openid`, signed by the configured
 * algorithm's current key. `auth_time` is when the session began; `nonce`
 * comes back only from the code grant (a refreshed ID Token has none);
 * `at_hash` binds it to the access token beside it. `amr` (RFC 8176) says
 * how the user signed in, as core recorded it on the session, and `acr` the
 * class that satisfies (docs/oidc-provider.md#amr-and-acr); both are kept
 * with the grant, so a refreshed ID Token says what the first one said.
 */
import type { User } from '@gatehouse/core'
import { atHash, issuer, signJwt, type KeyContext } from '../keys/index.js'
import type { OAuthClient, ResolvedOidcOptions } from '../options.js'
import { userClaims } from './claims.js'
import type { IssuedTokens } from './tokens.js'

export async function issueIdToken(
  ctx: KeyContext,
  options: ResolvedOidcOptions,
  client: OAuthClient,
  user: User,
  tokens: IssuedTokens,
): Promise<string> {
  const alg = options.signing.algorithm
  const now = Math.floor(ctx.auth.clock.now().getTime() / 1000)
  const claims = await userClaims(options, user, tokens.scopes, client)
  return signJwt(
    ctx,
    options,
    {
      ...claims,
      // Registered claims after the application's: none of them can be overridden.
      iss: issuer(ctx),
      aud: client.clientId,
      azp: client.clientId,
      iat: now,
      // The ID Token lives as long as the access token issued with it.
      exp: now + options.accessTokenExpiresIn,
      ...(tokens.authTime ? { auth_time: Math.floor(tokens.authTime.getTime() / 1000) } : {}),
      ...(tokens.nonce !== undefined ? { nonce: tokens.nonce } : {}),
      ...(tokens.amr.length > 0 ? { amr: [...tokens.amr] } : {}),
      ...(tokens.acr !== undefined ? { acr: tokens.acr } : {}),
      at_hash: atHash(tokens.accessToken, alg),
    },
    { alg },
  )
}
