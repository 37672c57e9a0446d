/**
 * @module
 * Input shapes shared by the social routes.
 */
import { z } from 'zod'

/** `idToken` of sign-in/social and link-social: a token from the provider's own SDK, plus what came with it. */
export const idTokenInput = z.lazy(() =>
  z.object({
    token: z.string().min(1),
    nonce: z.string().optional(),
    accessToken: z.string().optional(),
    refreshToken: z.string().optional(),
    /** Epoch milliseconds at which `accessToken` expires. */
    expiresAt: z.number().optional(),
  }),
)

export const scopesInput = z.lazy(() => z.array(z.string().min(1)).optional())
