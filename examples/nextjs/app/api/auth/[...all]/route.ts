/**
 * Gatehouse at /api/auth/*. A route handler gets the web `Request` and no
 * socket: `next start` writes the connection's address into
 * `x-forwarded-for` itself, and Gatehouse reads it from there because
 * lib/auth.ts says so (`trustedProxyCount: 1`; README.md#client-addresses),
 * so no `{ ip }` is passed.
 */
import { auth } from '../../../../lib/auth'

export function GET(request: Request): Promise<Response> {
  return auth.handler(request)
}

export function POST(request: Request): Promise<Response> {
  return auth.handler(request)
}

// PUT, PATCH and DELETE: the protocols a plugin may serve here (SCIM's /scim/v2, docs/scim.md).
export function PUT(request: Request): Promise<Response> {
  return auth.handler(request)
}

export function PATCH(request: Request): Promise<Response> {
  return auth.handler(request)
}

export function DELETE(request: Request): Promise<Response> {
  return auth.handler(request)
}
