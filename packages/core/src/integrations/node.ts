/**
 * @module
 * node:http glue: turns an IncomingMessage into a web Request for
 * `auth.handler` and writes the Response back. The socket's address is
 * appended to x-forwarded-for exactly as a proxy would, so the rightmost
 * entry is the peer this server saw: with no proxy in front, rate limits key
 * on the real client; behind N proxies, set `advanced.ipAddress.trustedProxyCount`
 * to N + 1.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'

type WebHandler = (request: Request) => Promise<Response>

/**
 * @example
 * import { createServer } from 'node:http'
 * import { toNodeHandler } from '@gatehouse/core/node'
 * const authHandler = toNodeHandler(auth.handler)
 * createServer((req, res) => req.url?.startsWith('/api/auth/') ? authHandler(req, res) : app(req, res)).listen(3000)
 */
export function toNodeHandler(handler: WebHandler): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      const response = await handler(toRequest(req))
      await writeResponse(response, res)
    } catch {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' }))
    }
  }
}

/** The request as a web Request. Only path and query of the URL matter to the handler; the host is never trusted. */
export function toRequest(req: IncomingMessage): Request {
  const headers = new Headers()
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    headers.append(req.rawHeaders[index] as string, req.rawHeaders[index + 1] as string)
  }
  const peer = req.socket.remoteAddress
  if (peer) {
    const forwarded = headers.get('x-forwarded-for')
    headers.set('x-forwarded-for', forwarded ? `${forwarded}, ${peer}` : peer)
  }
  const method = req.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD'
  const init: RequestInit & { duplex?: 'half' } = { method, headers }
  if (hasBody) {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>
    init.duplex = 'half'
  }
  return new Request(new URL(req.url ?? '/', 'http://localhost'), init)
}

export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') headers[name] = value
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  res.writeHead(response.status, headers)
  if (!response.body) {
    res.end()
    return
  }
  res.end(Buffer.from(await response.arrayBuffer()))
}
