/**
 * @module
 * What the request pipeline needs of a request, whatever server it came
 * from: method, path, query, headers and a size-capped body reader. A web
 * `Request` is one source; node:http is another (integrations/node.ts) that
 * skips building a `Request` at all unless a handler asks for one — building
 * it costs more than answering a cached get-session.
 */
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'
import { HeaderMap } from './header-map.js'

/** Where an auth object keeps its direct entry point, for server glue such as toNodeHandler. */
export const handleIncomingKey: unique symbol = Symbol.for('gatehouse.handleIncoming')

export interface Incoming {
  readonly method: string
  /** The path, percent-encoded as sent. */
  readonly pathname: string
  /** The query string without `?`. */
  readonly query: string
  readonly headers: Headers
  /**
   * The address of the connection's other end, when the server glue knows it
   * (node:http does; a web `Request` does only when the caller passes
   * `auth.handler(request, { ip })`). Both glues also append it to
   * x-forwarded-for as one more hop; the rate limiter counts under it when the
   * headers still name no usable client.
   */
  readonly peerAddress?: string
  /** The body as text, refusing more than `maxBytes` (413) while reading, and invalid UTF-8 (400). */
  text(maxBytes: number): Promise<string>
  /** The request as a web `Request`, made on first use (its body may already be read). */
  request(): Request
}

/**
 * A web `Request`. `peerAddress` is the connection's address when the framework
 * tells it (docs/rate-limits.md#web-handlers): appended to x-forwarded-for as
 * a proxy would, as toNodeHandler does, so the rightmost entry is the peer the
 * server saw and a header the client wrote cannot stand in for it.
 */
export function incomingFromRequest(request: Request, peer?: string): Incoming {
  const url = new URL(request.url)
  // A Request that toNodeHandler made carries its socket's peer as the last hop already: known, not appended twice.
  const appended = peer === undefined ? forwardedPeers.get(request) : undefined
  const peerAddress = peer ?? appended
  return {
    method: request.method,
    pathname: url.pathname,
    query: url.search.slice(1),
    headers: peer === undefined ? request.headers : withForwardedPeer(request.headers, peer),
    ...(peerAddress === undefined ? {} : { peerAddress }),
    text: (maxBytes) => readCapped(request.body, request.headers, maxBytes),
    request: () => request,
  }
}

/**
 * The Requests made by server glue (toNodeHandler given a web handler, such
 * as `toNodeHandler(auth.handler)`) with the socket's peer already appended
 * to x-forwarded-for: `auth.handler` treats them as if given `{ ip }`, so the
 * appended hop is believed (docs/rate-limits.md#whose-header-is-believed).
 */
const forwardedPeers = new WeakMap<Request, string>()

/** Marks `request` as carrying `peer` as its last x-forwarded-for hop, appended by the glue that made it. */
export function markForwardedPeer(request: Request, peer: string): Request {
  forwardedPeers.set(request, peer)
  return request
}

/** A copy of the headers with the peer appended to x-forwarded-for (a request's own headers may be immutable). */
export function withForwardedPeer(headers: Headers, peer: string): Headers {
  const copy = new HeaderMap()
  for (const [name, value] of headers) copy.append(name, value)
  const forwarded = copy.get('x-forwarded-for')
  copy.set('x-forwarded-for', forwarded ? `${forwarded}, ${peer}` : peer)
  return copy
}

/** Reads a byte stream to text, failing with 413 once it passes the cap (declared or streamed), and with 400 on invalid UTF-8. */
export async function readCapped(
  body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | null,
  headers: Headers,
  maxBytes: number,
): Promise<string> {
  const declared = headers.get('content-length')
  if (declared !== null && Number(declared) > maxBytes) throw new AuthError(CoreErrors.PAYLOAD_TOO_LARGE)
  if (!body) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  const iterable: AsyncIterable<Uint8Array> = Symbol.asyncIterator in body ? body : streamChunks(body)
  for await (const chunk of iterable) {
    size += chunk.byteLength
    if (size > maxBytes) throw new AuthError(CoreErrors.PAYLOAD_TOO_LARGE)
    chunks.push(chunk)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  // Keep a leading byte-order mark: a raw body (a signed webhook) must reach its handler byte for byte. Refuse
  // invalid UTF-8 rather than turn it into U+FFFD: the text would then differ from the bytes sent, and a signature
  // checked over the text could verify bytes that were never signed.
  try {
    return new TextDecoder('utf-8', { ignoreBOM: true, fatal: true }).decode(bytes)
  } catch {
    throw new AuthError(CoreErrors.INVALID_BODY_ENCODING)
  }
}

async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    // Stops the upload when the cap is hit (the loop above exits early).
    await reader.cancel().catch(() => undefined)
  }
}
