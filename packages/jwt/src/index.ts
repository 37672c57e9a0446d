export { jwt, jwtEndpoints, type JwtEndpoints } from './plugin.js'
export { JwtErrors, type JwtErrorCode } from './errors.js'
export { lifetimeSeconds, resolveJwtOptions, type JwtOptions, type ResolvedJwtOptions } from './options.js'
export { verifySessionJwt, type SessionJwtPayload, type VerifySessionJwtOptions } from './verify.js'
