/**
 * @module
 * GET /one-time-token/generate (docs/sessions.md#one-time-tokens): a
 * single-use token for the caller's session, to hand to another origin that
 * redeems it at /one-time-token/verify. Only with the `oneTimeToken` option.
 * The session must be one that may change credentials (the cookie or a bearer
 * token): a token redeemed elsewhere sets a full session cookie, which an API
 * key must not be able to mint.
 */
import { defineEndpoint } from '../../endpoint/define-endpoint.js'
import { AuthError } from '../../errors/catalogue.js'
import { CoreErrors } from '../../errors/core-errors.js'
import { requestSessionToken } from '../../session/credentials.js'
import { credentialSessionMiddleware } from '../../session/middleware.js'
import { createOneTimeToken, oneTimeTokenSettings } from '../../session/one-time-token.js'

export const generateOneTimeToken = defineEndpoint({
  method: 'GET',
  path: '/one-time-token/generate',
  use: [credentialSessionMiddleware],
  handler: async (ctx) => {
    const settings = oneTimeTokenSettings(ctx.options)
    if (!settings) throw new AuthError(CoreErrors.ONE_TIME_TOKEN_DISABLED)
    if (settings.disableClientRequest && !ctx.isServerCall) throw new AuthError(CoreErrors.ONE_TIME_TOKEN_CLIENT_REQUESTS_DISABLED)
    // The unhashed token of the session just read: the store keeps only its hash.
    const sessionToken = requestSessionToken(ctx)
    if (!sessionToken) throw new AuthError(CoreErrors.UNAUTHORIZED)
    return { token: await createOneTimeToken(ctx, sessionToken, settings.expiresIn) }
  },
})
