/**
 * @module
 * node:http glue. Given the auth object, requests go straight into the
 * pipeline: headers are read from node's parsed object and the body from the
 * socket, and the answer is written without building a web Request or
 * Response (that conversion alone costs more than a cached get-session).
 * Given any `(Request) => Promise<Response>` handler it converts both ways.
 *
 * The socket's address is appended to x-forwarded-for exactly as a proxy
 * would, so the rightmost entry is the peer this server saw: with no proxy in
 * front, rate limits key on the real client; behind N proxies, set
 * `advanced.ipAddress.trustedProxyCount` to N + 1. The peer is also handed
 * over on its own, so a request whose header lacks a usable entry from those
 * proxies is still rate limited, under the peer (endpoint/handler.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import { HeaderMap } from '../endpoint/header-map.js'
import { handleIncomingKey, markForwardedPeer, readCapped, type Incoming } from '../endpoint/incoming.js'
import type { Outgoing } from '../endpoint/respond.js'

export { toHeaders, type HeadersInput, type NodeHeaders } from '../endpoint/headers-input.js'

type WebHandler = (request: Request) => Promise<Response>
type FastTarget = { readonly [handleIncomingKey]: (incoming: Incoming) => Promise<Outgoing> }

/**
 * @example
 * import { createServer } from 'node:http'
 * import { toNodeHandler } from '@gatehouse/core/node'
 * const authHandler = toNodeHandler(auth)
 * createServer((req, res) => req.url?.startsWith('/api/auth/') ? authHandler(req, res) : app(req, res)).listen(3000)
 */
export function toNodeHandler(target: FastTarget | WebHandler): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      if (typeof target !== 'function') await writeOutgoing(await target[handleIncomingKey](incomingFromNode(req)), res)
      else if (req.method !== 'GET' && req.method !== 'HEAD' && bodyAlreadyRead(req)) await writeOutgoing(bodyAlreadyReadAnswer(), res)
      else await writeResponse(await target(toRequest(req)), res)
    } catch {
      // A fault of the auth object's start-up (the database cannot be opened) was logged once, with its cause, by createAuth.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' }))
    }
  }
}

function forwardedHeaders(req: IncomingMessage): HeaderMap {
  const headers = HeaderMap.fromNode(req.headers)
  const peer = req.socket.remoteAddress
  if (peer) {
    const forwarded = headers.get('x-forwarded-for')
    headers.set('x-forwarded-for', forwarded ? `${forwarded}, ${peer}` : peer)
  }
  return headers
}

/** The pipeline's view of a node request; only path and query of the URL are used, the host is never trusted. */
export function incomingFromNode(req: IncomingMessage): Incoming {
  const headers = forwardedHeaders(req)
  const raw = req.url ?? '/'
  const target = raw.startsWith('/') ? raw : safePath(raw)
  const mark = target.indexOf('?')
  const method = req.method ?? 'GET'
  let request: Request | undefined
  return {
    method,
    pathname: mark < 0 ? target : target.slice(0, mark),
    query: mark < 0 ? '' : target.slice(mark + 1),
    headers,
    peerAddress: req.socket.remoteAddress,
    text: (maxBytes) => {
      if (bodyAlreadyRead(req)) throw new AuthError(CoreErrors.BODY_ALREADY_READ)
      return readCapped(req, headers, maxBytes)
    },
    // Made only when a handler asks; the body has been read into the handler's input by then.
    request: () => (request ??= new Request(new URL(target, 'http://localhost'), { method, headers })),
  }
}

/**
 * A body parser mounted before the handler (`app.use(express.json())`) has
 * read the stream: what is left is empty, and the request would fail
 * validation with a message about the body, not the setup
 * (docs/endpoints.md#body-parsers). body-parser marks a parsed request with
 * `_body`; any other reader leaves the stream ended.
 */
function bodyAlreadyRead(req: IncomingMessage): boolean {
  return req.readableEnded || (req as IncomingMessage & { _body?: unknown })._body === true
}

function bodyAlreadyReadAnswer(): Outgoing {
  const { code, status, message } = new AuthError(CoreErrors.BODY_ALREADY_READ)
  return { status, headers: [['content-type', 'application/json']], body: JSON.stringify({ code, message }) }
}

/** Absolute-form request targets (sent to proxies): keep path and query only. */
function safePath(raw: string): string {
  try {
    const url = new URL(raw)
    return `${url.pathname}${url.search}`
  } catch {
    return '/'
  }
}

export async function writeOutgoing(outgoing: Outgoing, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  const cookies: string[] = []
  for (const [name, value] of outgoing.headers) {
    if (name === 'set-cookie') cookies.push(value)
    else headers[name] = value
  }
  if (cookies.length > 0) headers['set-cookie'] = cookies
  const { body } = outgoing
  if (typeof body === 'string') {
    headers['content-length'] = String(Buffer.byteLength(body))
    res.writeHead(outgoing.status, headers)
    res.end(body)
    return
  }
  res.writeHead(outgoing.status, headers)
  if (!body) {
    res.end()
    return
  }
  for await (const chunk of Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>)) {
    res.write(chunk)
  }
  res.end()
}

/**
 * A node request as a web Request, for plain `(Request) => Response` handlers,
 * or for server code written against `Request` (docs/getting-started.md#6-from-server-code).
 * The body is streamed from the socket, so call it once per request.
 *
 * @example
 * import { toRequest } from '@gatehouse/core/node'
 * const response = await auth.handler(toRequest(req))
 */
export function toRequest(req: IncomingMessage): Request {
  const headers = new Headers()
  for (const [name, value] of forwardedHeaders(req)) headers.append(name, value)
  const method = req.method ?? 'GET'
  const init: RequestInit & { duplex?: 'half' } = { method, headers }
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>
    init.duplex = 'half'
  }
  const request = new Request(new URL(req.url ?? '/', 'http://localhost'), init)
  // auth.handler believes the hop appended above, as it would with `{ ip }` (docs/rate-limits.md#whose-header-is-believed).
  return req.socket.remoteAddress ? markForwardedPeer(request, req.socket.remoteAddress) : request
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
