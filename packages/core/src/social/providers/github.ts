/**
 * @module
 * GitHub (docs/social.md#github): plain OAuth 2.0, no ID Token. The profile
 * comes from `GET /user`; the email from `GET /user/emails`, because `/user`
 * shows only the address the person chose to make public and never says
 * whether it is verified. The primary address counts as verified only when
 * GitHub says so, which decides implicit account linking.
 *
 * This file is the model for a plain OAuth 2.0 provider: endpoints and scopes
 * as data, and `getUserInfo` reading the profile with `ctx.fetchJson` (timed).
 */
import { defineProvider, isRecord, stringField, type ProviderUserInfo } from '../../types/social.js'

const API = 'https://api.github.com'
/** GitHub's REST API refuses requests without a User-Agent. */
const HEADERS = { 'user-agent': 'gatehouse', accept: 'application/vnd.github+json' }

interface GithubEmail {
  email: string
  primary: boolean
  verified: boolean
}

/**
 * @example
 * socialProviders: { github: { clientId: process.env.GITHUB_CLIENT_ID!, clientSecret: process.env.GITHUB_CLIENT_SECRET! } }
 */
export const github = defineProvider({
  id: 'github',
  name: 'GitHub',
  create: (config) => ({
    id: 'github',
    name: 'GitHub',
    clientId: config.clientId,
    ...(config.clientSecret === undefined ? {} : { clientSecretValue: config.clientSecret }),
    authorizationEndpoint: 'https://github.com/login/oauth/authorize',
    tokenEndpoint: 'https://github.com/login/oauth/access_token',
    userInfoEndpoint: `${API}/user`,
    tokenAuthMethod: 'client_secret_post',
    // read:user for the profile, user:email for the private and verified addresses.
    scopes: ['read:user', 'user:email'],
    pkce: true,
    // Only GitHub Apps with expiring user tokens get refresh tokens; OAuth Apps' tokens do not expire.
    supportsRefresh: true,
    async getUserInfo(tokens, ctx): Promise<ProviderUserInfo | null> {
      if (!tokens.accessToken) return null
      const profile = await ctx.fetchJson(`${API}/user`, tokens.accessToken, HEADERS)
      if (!isRecord(profile) || (typeof profile.id !== 'number' && typeof profile.id !== 'string')) return null
      // Without the user:email scope this call fails; the public address (unverified) is then all there is.
      const emails = await ctx.fetchJson(`${API}/user/emails`, tokens.accessToken, HEADERS).catch(() => null)
      const list = Array.isArray(emails) ? emails.filter(isGithubEmail) : []
      const primary = list.find((entry) => entry.primary) ?? list.find((entry) => entry.verified)
      const email = primary?.email ?? (typeof profile.email === 'string' ? profile.email : null)
      return {
        id: String(profile.id),
        email,
        // A public address missing from /user/emails is not vouched for.
        emailVerified: primary?.verified === true && primary.email === email,
        name: stringField(profile.name, stringField(profile.login, '')),
        image: stringField(profile.avatar_url, null),
        data: profile,
      }
    },
  }),
})

function isGithubEmail(value: unknown): value is GithubEmail {
  return isRecord(value) && typeof value.email === 'string' && typeof value.primary === 'boolean' && typeof value.verified === 'boolean'
}
