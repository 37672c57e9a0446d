/**
 * @module
 * Social sign-in from the environment: every provider whose `<ID>_CLIENT_ID`
 * and `<ID>_CLIENT_SECRET` are set, Apple's key or ready-made secret, and the
 * generic OpenID Connect provider `oidc` from `SOCIAL_OIDC_*`
 * (docs/social.md#providers).
 */
import { ConfigError, origin, value, type Env } from './config-env.js'

/** The named providers the server can enable, by id; `<ID>` in the variable names is the id in capitals. */
export const SOCIAL_PROVIDER_IDS = [
  'apple',
  'discord',
  'dropbox',
  'facebook',
  'github',
  'gitlab',
  'google',
  'huggingface',
  'kick',
  'linkedin',
  'microsoft',
  'reddit',
  'roblox',
  'spotify',
  'tiktok',
  'twitch',
  'twitter',
  'vk',
  'zoom',
] as const

export type SocialProviderId = (typeof SOCIAL_PROVIDER_IDS)[number]

export interface SocialProviderSettings {
  readonly clientId: string
  readonly clientSecret?: string
  /** Apple: the team, the key's id and its PKCS#8 PEM, to mint the client secret. */
  readonly teamId?: string
  readonly keyId?: string
  readonly privateKey?: string
  /** Apple: the iOS app whose ID Tokens are accepted too. */
  readonly appBundleIdentifier?: string
  /** Microsoft: `common` (default), `organizations`, `consumers` or a tenant id. */
  readonly tenantId?: string
  /** GitLab: a self-hosted instance's URL. */
  readonly issuer?: string
}

export interface GenericOidcSettings {
  readonly type: 'oidc'
  readonly issuer: string
  readonly name: string
  readonly clientId: string
  readonly clientSecret?: string
}

export type SocialProviders = { readonly [K in SocialProviderId]?: SocialProviderSettings } & { readonly oidc?: GenericOidcSettings }

/** Both halves of a credential, or neither: one alone is a typo that would fail at the first sign-in. */
function pair(env: Env, idName: string, secretName: string): { clientId: string; clientSecret: string } | undefined {
  const clientId = value(env, idName)
  const clientSecret = value(env, secretName)
  if (clientId === undefined && clientSecret === undefined) return undefined
  if (clientId === undefined || clientSecret === undefined) {
    throw new ConfigError(`${idName} and ${secretName} must be set together (${clientId === undefined ? idName : secretName} is missing)`)
  }
  return { clientId, clientSecret }
}

/**
 * Apple's client secret is a JWT: give it ready-made (APPLE_CLIENT_SECRET, it expires within six months)
 * or give the key to mint one per request (APPLE_TEAM_ID, APPLE_KEY_ID, APPLE_PRIVATE_KEY).
 */
function appleSettings(env: Env): SocialProviderSettings | undefined {
  const clientId = value(env, 'APPLE_CLIENT_ID')
  const clientSecret = value(env, 'APPLE_CLIENT_SECRET')
  const teamId = value(env, 'APPLE_TEAM_ID')
  const keyId = value(env, 'APPLE_KEY_ID')
  // A PEM in one environment line usually has its newlines written as \n.
  const privateKey = value(env, 'APPLE_PRIVATE_KEY')?.replaceAll('\\n', '\n')
  const bundle = value(env, 'APPLE_APP_BUNDLE_IDENTIFIER')
  if ([clientId, clientSecret, teamId, keyId, privateKey, bundle].every((entry) => entry === undefined)) return undefined
  if (clientId === undefined) throw new ConfigError('APPLE_CLIENT_ID (the Services ID) is required when any APPLE_ variable is set')
  const app = bundle === undefined ? {} : { appBundleIdentifier: bundle }
  if (clientSecret !== undefined) return { clientId, clientSecret, ...app }
  if (teamId === undefined || keyId === undefined || privateKey === undefined) {
    throw new ConfigError('Apple needs APPLE_CLIENT_SECRET, or APPLE_TEAM_ID, APPLE_KEY_ID and APPLE_PRIVATE_KEY to mint one')
  }
  return { clientId, teamId, keyId, privateKey, ...app }
}

export function socialProviders(env: Env): SocialProviders {
  const providers: Record<string, SocialProviderSettings | GenericOidcSettings> = {}
  for (const id of SOCIAL_PROVIDER_IDS) {
    if (id === 'apple') continue
    const prefix = id.toUpperCase()
    const credentials = pair(env, `${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`)
    if (credentials === undefined) continue
    const tenantId = id === 'microsoft' ? value(env, 'MICROSOFT_TENANT_ID') : undefined
    const issuer = id === 'gitlab' ? value(env, 'GITLAB_ISSUER') : undefined
    providers[id] = {
      ...credentials,
      ...(tenantId === undefined ? {} : { tenantId }),
      ...(issuer === undefined ? {} : { issuer: origin('GITLAB_ISSUER', issuer) }),
    }
  }
  const appleProvider = appleSettings(env)
  if (appleProvider) providers.apple = appleProvider

  const issuer = value(env, 'SOCIAL_OIDC_ISSUER')
  const clientId = value(env, 'SOCIAL_OIDC_CLIENT_ID')
  const clientSecret = value(env, 'SOCIAL_OIDC_CLIENT_SECRET')
  if (issuer !== undefined || clientId !== undefined || clientSecret !== undefined) {
    if (issuer === undefined || clientId === undefined) {
      throw new ConfigError('SOCIAL_OIDC_ISSUER and SOCIAL_OIDC_CLIENT_ID must be set together (SOCIAL_OIDC_CLIENT_SECRET too unless the client is public)')
    }
    origin('SOCIAL_OIDC_ISSUER', issuer)
    providers.oidc = {
      type: 'oidc',
      // An identifier compared character for character with the ID Token's `iss`: kept as given, trailing slash and all.
      issuer,
      name: value(env, 'SOCIAL_OIDC_NAME') ?? 'OpenID Connect',
      clientId,
      ...(clientSecret === undefined ? {} : { clientSecret }),
    }
  }
  return providers
}
