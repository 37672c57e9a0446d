/**
 * @module
 * Input shapes shared by the social routes. Scopes and provider tokens are
 * capped (docs/social.md#input-limits): scopes are stored in the OAuth state
 * row and sent on to the provider, tokens are stored on the account.
 */
import { z } from 'zod'
import { MAX_PROVIDER_TOKEN_LENGTH, MAX_SCOPE_LENGTH, MAX_SCOPES } from '../../endpoint/input-limits.js'

/** `idToken` of sign-in/social and link-social: a token from the provider's own SDK, plus what came with it. */
export const idTokenInput = z.lazy(() =>
  z.object({
    token: z.string().min(1).max(MAX_PROVIDER_TOKEN_LENGTH),
    nonce: z.string().optional(),
    accessToken: z.string().max(MAX_PROVIDER_TOKEN_LENGTH).optional(),
    refreshToken: z.string().max(MAX_PROVIDER_TOKEN_LENGTH).optional(),
    /** Epoch milliseconds at which `accessToken` expires. */
    expiresAt: z.number().optional(),
  }),
)

export const scopesInput = z.lazy(() => z.array(z.string().min(1).max(MAX_SCOPE_LENGTH)).max(MAX_SCOPES).optional())
