/**
 * @module
 * The protocol half of the OpenID Connect callback (docs/sso.md#openid-connect),
 * on oauth4webapi, every request through the safe fetch (oidc/transport.ts):
 *
 * 1. The authorization response: `iss` (RFC 9207) must be the provider's
 *    issuer when sent, and must be sent when the provider advertises
 *    `authorization_response_iss_parameter_supported`: a response from
 *    another IdP the browser also uses is not taken for this one's (mix-up
 *    attack, RFC 9700 §4.4). Then `state` again and the provider's `error`.
 * 2. The code exchange, with the client secret (`client_secret_basic`, or
 *    `client_secret_post` when configured) and the PKCE verifier.
 * 3. The ID Token: required; claims checked by oauth4webapi
 *    (`iss` the discovered issuer, `aud` the client id, `exp`/`iat` by the
 *    auth's clock, `nonce` the state's), `azp` the client id when present, and its
 *    signature checked against the provider's JWKS by
 *    `validateApplicationLevelSignature`, asymmetric algorithms only.
 *    OpenID Connect Core §3.1.3.7 lets a client skip the signature of a token
 *    received over TLS from the token endpoint, and core's social sign-in
 *    does; here the token endpoint is a URL an organization's admin typed,
 *    possibly a trusted origin reached over plain http, so the signature by
 *    the issuer's published keys is what proves the issuer minted it.
 *    Core's ID-token sign-in (core/src/social/id-token.ts) verifies with
 *    jose's remote key set for the same reason; oauth4webapi's check is used
 *    here because it fetches the key set through the same safe fetch and
 *    caches it with the discovered metadata (5 minutes, refetched once on an
 *    unknown `kid`).
 * 4. UserInfo, only when the ID Token lacks a claim the mapping reads; its
 *    `sub` must be the ID Token's (OpenID Connect Core §5.3.4), or it could
 *    describe someone else.
 */
import type { EndpointContext } from '@gatehouse/core'
import * as oauth from 'oauth4webapi'
import type { OidcConfig } from '../types.js'
import { mappedClaims } from './claims.js'
import type { SsoStateData } from './state.js'
import { oauthClient, requestOptions } from './transport.js'

/** A provider's `error` is passed on only when it looks like an RFC 6749 §4.1.2.1 code. */
const ERROR_CODE = /^[a-z0-9_]{1,64}$/

export type ExchangeFailure =
  /** `iss` of the authorization response missing where advertised, or another issuer's. */
  | 'issuer_mismatch'
  /** The response's `state` or shape is wrong. */
  | 'invalid_callback_request'
  /** The authorization response carries no code. */
  | 'no_code'
  /** The token endpoint refused the code. */
  | 'invalid_code'
  /** No ID Token, or one whose claims or signature do not hold. */
  | 'invalid_id_token'
  /** UserInfo failed, or describes another subject. */
  | 'unable_to_get_user_info'
  /** A request to the provider failed or was refused by the safe fetch. */
  | 'provider_unavailable'

export type ExchangeResult =
  | { readonly ok: true; readonly claims: Readonly<Record<string, unknown>> }
  /** The provider answered the authorization with `error`: passed on when it is a plain code. */
  | { readonly ok: false; readonly reason: 'provider_error'; readonly error: string }
  | { readonly ok: false; readonly reason: ExchangeFailure }

/**
 * Checks the authorization response, redeems its code, validates the ID Token
 * and reads UserInfo when needed; answers the provider's claims (ID Token
 * claims over UserInfo's) or why not.
 *
 * @example
 * const result = await exchangeCode(ctx, config, server, params, { state, data, redirectURI })
 * if (result.ok) profileFromClaims(result.claims, config.mapping)
 */
export async function exchangeCode(
  ctx: Pick<EndpointContext, 'auth' | 'clock' | 'logger'>,
  config: OidcConfig,
  server: oauth.AuthorizationServer,
  params: URLSearchParams,
  flow: { readonly state: string; readonly data: SsoStateData; readonly redirectURI: string },
): Promise<ExchangeResult> {
  const iss = params.get('iss')
  if (iss === null ? server.authorization_response_iss_parameter_supported === true : iss !== server.issuer) {
    return { ok: false, reason: 'issuer_mismatch' }
  }
  const client = oauthClient(ctx, config.clientId)
  let validated: URLSearchParams
  try {
    validated = oauth.validateAuthResponse(server, client, params, flow.state)
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      return { ok: false, reason: 'provider_error', error: ERROR_CODE.test(error.error) ? error.error : 'invalid_callback_request' }
    }
    return { ok: false, reason: 'invalid_callback_request' }
  }
  if (!validated.get('code')) return { ok: false, reason: 'no_code' }

  let stage: 'token' | 'id_token' | 'userinfo' = 'token'
  try {
    const authentication =
      config.tokenEndpointAuthentication === 'client_secret_post' ? oauth.ClientSecretPost(config.clientSecret) : oauth.ClientSecretBasic(config.clientSecret)
    const response = await oauth.authorizationCodeGrantRequest(
      server,
      client,
      authentication,
      validated,
      flow.redirectURI,
      flow.data.codeVerifier,
      requestOptions(ctx, server.token_endpoint),
    )
    const tokens = await oauth.processAuthorizationCodeResponse(server, client, response, { expectedNonce: flow.data.nonce, requireIdToken: true })
    stage = 'id_token'
    await oauth.validateApplicationLevelSignature(server, response, requestOptions(ctx, server.jwks_uri))
    const idClaims = oauth.getValidatedIdTokenClaims(tokens) as Readonly<Record<string, unknown>> & { sub: string }
    // OpenID Connect Core §3.1.3.7 (5): oauth4webapi checks `azp` only beside several audiences; a token
    // issued to another client (its `azp`) is no sign-in at this one, whatever its `aud` says.
    if (idClaims.azp !== undefined && idClaims.azp !== config.clientId) return { ok: false, reason: 'invalid_id_token' }

    const missing = mappedClaims(config.mapping).some((claim) => idClaims[claim] === undefined)
    if (!missing || !server.userinfo_endpoint) return { ok: true, claims: idClaims }
    stage = 'userinfo'
    const userInfoResponse = await oauth.userInfoRequest(server, client, tokens.access_token, requestOptions(ctx, server.userinfo_endpoint))
    const userInfo = await oauth.processUserInfoResponse(server, client, idClaims.sub, userInfoResponse)
    return { ok: true, claims: { ...userInfo, ...idClaims } }
  } catch (error) {
    // Names and codes only: the messages of protocol errors may quote the provider's response.
    ctx.logger.warn('sso: OIDC callback failed', {
      stage,
      error: error instanceof Error ? error.name : typeof error,
      code: typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined,
    })
    if (error instanceof oauth.ResponseBodyError && stage === 'token') return { ok: false, reason: 'invalid_code' }
    if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
      // At the token stage these are the token response's checks, the ID Token's claims among them (nonce, aud, iss).
      return { ok: false, reason: stage === 'userinfo' ? 'unable_to_get_user_info' : 'invalid_id_token' }
    }
    if (stage === 'userinfo') return { ok: false, reason: 'unable_to_get_user_info' }
    return { ok: false, reason: 'provider_unavailable' }
  }
}
