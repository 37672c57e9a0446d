/**
 * @module
 * Sign in with Apple (docs/social.md#apple): OpenID Connect with quirks.
 *
 * - Asking for `name` or `email` requires `response_mode=form_post`: the
 *   callback is a cross-site POST to `/callback/apple`.
 * - The client secret is an ES256 JWT signed with the team's key (`teamId`,
 *   `keyId`, `privateKey`), minted per token request here and short-lived.
 * - The profile is the ID Token: `sub`, `email`, `email_verified`,
 *   `is_private_email` (a private relay address). Apple never puts the name
 *   in the ID Token; it sends it once, on the first authorization, in the
 *   form post's `user` field, and never again.
 * - Apple does not document PKCE; state and nonce protect the code.
 */
import { importPKCS8, SignJWT } from 'jose'
import { defineProvider, isRecord, stringField, type AppleProviderConfig, type ProviderUserInfo } from '../../types/social.js'

const ISSUER = 'https://appleid.apple.com'
/** Apple accepts up to six months; a per-request secret needs only to outlive the request. */
const CLIENT_SECRET_LIFETIME_SECONDS = 300

/**
 * @example
 * socialProviders: {
 *   apple: { clientId: 'com.example.web', teamId: 'ABCDE12345', keyId: 'XYZ987WVU6', privateKey: process.env.APPLE_PRIVATE_KEY! },
 * }
 */
export const apple = defineProvider<AppleProviderConfig>({
  id: 'apple',
  name: 'Apple',
  create: (config) => {
    const mint = config.clientSecret === undefined ? clientSecretMinter(config) : undefined
    return {
      id: 'apple',
      name: 'Apple',
      clientId: config.clientId,
      ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
      ...(mint ? { clientSecret: (ctx) => mint(ctx.now()) } : {}),
      authorizationEndpoint: `${ISSUER}/auth/authorize`,
      tokenEndpoint: `${ISSUER}/auth/token`,
      issuer: ISSUER,
      jwksUri: `${ISSUER}/auth/keys`,
      idTokenAlgorithms: ['RS256'],
      // Tokens minted by the iOS app (ID-token sign-in) name the bundle id as their audience.
      idTokenAudiences: config.appBundleIdentifier ? [config.clientId, config.appBundleIdentifier] : [config.clientId],
      tokenAuthMethod: 'client_secret_post',
      // Apple's discovery document lists openid, name and email; openid brings the nonce.
      scopes: ['openid', 'name', 'email'],
      pkce: false,
      responseMode: 'form_post',
      async getUserInfo(_tokens, ctx): Promise<ProviderUserInfo | null> {
        const claims = ctx.idTokenClaims
        if (!isRecord(claims) || typeof claims.sub !== 'string' || claims.sub === '') return null
        const firstSignIn = firstSignInUser(ctx.callbackParams)
        const email = stringField(claims.email, null)
        return {
          id: claims.sub,
          email,
          emailVerified: email !== null && appleBoolean(claims.email_verified),
          name: firstSignIn.name ?? '',
          image: null,
          data: {
            ...claims,
            // Apple sends these as "true" strings in some tokens and as booleans in others.
            email_verified: appleBoolean(claims.email_verified),
            is_private_email: appleBoolean(claims.is_private_email),
            ...(firstSignIn.name === undefined ? {} : { name: firstSignIn.name }),
          },
        }
      },
    }
  },
})

/** `true` or `"true"`: Apple's ID Tokens use both spellings for boolean claims. */
function appleBoolean(value: unknown): boolean {
  return value === true || value === 'true'
}

/**
 * The `user` field of Apple's first form post: `{"name":{"firstName","lastName"},"email"}`.
 * Anything else (no field, bad JSON, no name) yields no name; it is only ever a display name,
 * never used to identify anyone, since it is not signed.
 */
export function firstSignInUser(params: URLSearchParams | null): { name?: string } {
  const raw = params?.get('user')
  if (!raw) return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return {}
  }
  const name = isRecord(parsed) && isRecord(parsed.name) ? parsed.name : undefined
  if (!name) return {}
  const full = [stringField(name.firstName, ''), stringField(name.lastName, '')].filter(Boolean).join(' ')
  return full ? { name: full } : {}
}

/**
 * Apple's client secret (https://developer.apple.com/documentation/accountorganizationaldatasharing/creating-a-client-secret):
 * ES256, `kid` = key id, `iss` = team id, `sub` = the Services ID, `aud` = Apple.
 * The key is imported once, at first use.
 */
function clientSecretMinter(config: AppleProviderConfig): (now: Date) => Promise<string> {
  const { teamId, keyId, privateKey } = config
  if (!teamId || !keyId || !privateKey) {
    throw new Error('Gatehouse: socialProviders.apple needs `clientSecret`, or `teamId`, `keyId` and `privateKey` to mint one.')
  }
  let key: ReturnType<typeof importPKCS8> | undefined
  return async (now) => {
    key ??= importPKCS8(privateKey, 'ES256')
    const issuedAt = Math.floor(now.getTime() / 1000)
    return new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: keyId })
      .setIssuer(teamId)
      .setSubject(config.clientId)
      .setAudience(ISSUER)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + CLIENT_SECRET_LIFETIME_SECONDS)
      .sign(await key)
  }
}
