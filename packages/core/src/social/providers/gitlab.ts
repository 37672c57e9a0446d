/**
 * @module
 * GitLab, on gitlab.com or self-hosted (docs/social.md#gitlab): plain OAuth
 * 2.0 with PKCE. The profile is `GET /api/v4/user`: `id`, `username`,
 * `name`, `email` (the primary address), `avatar_url`, `confirmed_at` and
 * `state`. The address counts as verified when the account is confirmed;
 * a blocked or deactivated account yields no profile.
 */
import { defineProvider, isRecord, stringField, type GitlabProviderConfig, type ProviderUserInfo } from '../../types/social.js'

const GITLAB_COM = 'https://gitlab.com'

/**
 * @example
 * socialProviders: { gitlab: { clientId: process.env.GITLAB_CLIENT_ID!, clientSecret: process.env.GITLAB_CLIENT_SECRET!, issuer: 'https://gitlab.example.com' } }
 */
export const gitlab = defineProvider<GitlabProviderConfig>({
  id: 'gitlab',
  name: 'GitLab',
  create: (config) => {
    // A self-hosted instance may live under a path (https://example.com/gitlab).
    const base = (config.issuer ?? GITLAB_COM).replace(/\/+$/, '')
    const userEndpoint = `${base}/api/v4/user`
    return {
      id: 'gitlab',
      name: 'GitLab',
      clientId: config.clientId,
      ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
      authorizationEndpoint: `${base}/oauth/authorize`,
      tokenEndpoint: `${base}/oauth/token`,
      userInfoEndpoint: userEndpoint,
      tokenAuthMethod: 'client_secret_post',
      scopes: ['read_user'],
      pkce: true,
      async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
        if (!tokens.accessToken) return null
        const profile = await ctx.fetchJson(userEndpoint, tokens.accessToken)
        if (!isRecord(profile) || (typeof profile.id !== 'number' && typeof profile.id !== 'string')) return null
        // An admin-blocked account can still hold a token issued before the block.
        if (typeof profile.state === 'string' && profile.state !== 'active') return null
        const email = stringField(profile.email, null)
        return {
          id: String(profile.id),
          email,
          emailVerified: email !== null && stringField(profile.confirmed_at, null) !== null,
          name: stringField(profile.name, stringField(profile.username, '')),
          image: stringField(profile.avatar_url, null),
          data: profile,
        }
      },
    }
  },
})
