/**
 * @module
 * The jwt plugin (docs/jwt.md): short-lived JWTs of the caller's session for
 * the application's other services, which verify them with the published key
 * set alone (`verifySessionJwt`, `@gatehouse/jwt/verify`).
 *
 * - `GET /token` answers `{ token }`; get-session answers it too, in the
 *   `set-auth-jwt` header, whenever it found a session.
 * - The keys are core's shared signing keys, the OIDC provider's when it is
 *   on: one table, one `GET /jwks`, private halves sealed under the secret,
 *   rotated with the old key published until its last token expires.
 * - A token is not revoked with its session: it lives `expirationTime`
 *   (15 minutes) whatever happens (docs/jwt.md#revocation).
 * - An API key's session gets no token: minting credentials is not a key's
 *   to do (docs/sessions.md#credentials-other-than-the-cookie).
 */
import {
  credentialSessionMiddleware,
  defineEndpoint,
  definePlugin,
  exposeHeader,
  getJwks,
  jwksSchema,
  sessionSource,
  signingKeys,
  type AfterHook,
  type AuthContext,
  type SessionWithUser,
} from '@gatehouse/core'
import { z } from 'zod'
import { JwtErrors } from './errors.js'
import { resolveJwtOptions, type JwtOptions, type ResolvedJwtOptions } from './options.js'
import { audienceOf, issuerOf, sessionJwt } from './token.js'

function isSession(value: unknown): value is SessionWithUser {
  return typeof value === 'object' && value !== null && 'session' in value && 'user' in value
}

/** Sets `set-auth-jwt` on get-session answers that carry a session a person signed in. */
function jwtHeader(options: ResolvedJwtOptions): AfterHook {
  return {
    matcher: (ctx) => ctx.path === '/get-session',
    handler: async (ctx) => {
      const data = ctx.returned
      if (!isSession(data) || !sessionSource(data).mayChangeCredentials) return
      const auth: AuthContext = ctx.auth
      exposeHeader(ctx.responseHeaders, 'set-auth-jwt', await sessionJwt({ auth, db: auth.db }, options, data))
    },
  }
}

export function jwtEndpoints(options: ResolvedJwtOptions) {
  return {
    getJwks,
    getToken: defineEndpoint({
      method: 'GET',
      path: '/token',
      use: [credentialSessionMiddleware],
      handler: async (ctx) => ({ token: await sessionJwt(ctx, options, ctx.session) }),
    }),
    signJWT: defineEndpoint({
      method: 'POST',
      path: '/sign-jwt',
      serverOnly: true,
      body: z.lazy(() => z.object({ payload: z.record(z.string(), z.unknown()) })),
      handler: async (ctx) => {
        const now = Math.floor(ctx.clock.now().getTime() / 1000)
        const token = await signingKeys(ctx.auth).sign(
          { iss: issuerOf(ctx.auth, options), aud: audienceOf(ctx.auth, options) as string | string[], iat: now, exp: now + options.expiresIn, ...ctx.body.payload },
          { alg: options.alg },
        )
        return { token }
      },
    }),
    verifyJWT: defineEndpoint({
      method: 'POST',
      path: '/verify-jwt',
      serverOnly: true,
      body: z.lazy(() => z.object({ token: z.string().max(16_384), issuer: z.string().optional() })),
      handler: async (ctx) => {
        const payload = await signingKeys(ctx.auth).verify(ctx.body.token, {
          issuer: ctx.body.issuer ?? issuerOf(ctx.auth, options),
          audience: audienceOf(ctx.auth, options),
          typ: 'JWT',
        })
        return { payload: payload && typeof payload.sub === 'string' ? payload : null }
      },
    }),
  }
}

export type JwtEndpoints = ReturnType<typeof jwtEndpoints>

/**
 * @example
 * createAuth({ plugins: [jwt({ jwt: { expirationTime: '5m' } })] })
 */
export function jwt(options: JwtOptions = {}) {
  const resolved = resolveJwtOptions(options)
  return definePlugin({
    id: 'jwt',
    // Named in the compile error of a client typed from this server without its client half (docs/client.md).
    clientHalf: { name: 'jwtClient', from: '@gatehouse/jwt/client' },
    schema: jwksSchema,
    endpoints: jwtEndpoints(resolved),
    errors: JwtErrors,
    hooks: { after: resolved.setHeader ? [jwtHeader(resolved)] : [] },
    signingKeys: {
      algorithms: [resolved.alg],
      tokenLifetime: resolved.expiresIn,
      ...(resolved.rotationInterval === undefined ? {} : { rotationInterval: resolved.rotationInterval }),
    },
    options: resolved,
  })
}
