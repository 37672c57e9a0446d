/**
 * @module
 * The fetch every URL an organization admin typed goes through (docs/sso.md#urls-the-server-fetches):
 * OIDC discovery, JWKS, token and userinfo endpoints, SAML metadata. It stops server-side
 * request forgery: a provider registered with `https://169.254.169.254/` or with a name
 * that resolves to 10.0.0.5 would otherwise make the server fetch its cloud credentials
 * or an internal admin page for whoever registered it.
 *
 * Each hop is checked twice. Before the request, the URL itself (`checkFetchableUrl`:
 * https, no credentials, no refused IP literal). Then at connect time, on the addresses
 * the socket is handed: the request runs on node:http/node:https with a `lookup` of our
 * own that resolves the name, refuses it if any address is refused, and gives the socket
 * only addresses it has just checked. There is no second resolution between the check and
 * the connect, so a name that answers a public address to the check and 127.0.0.1 to the
 * connect (DNS rebinding) cannot get through. An origin the policy trusts (an internal
 * IdP) skips the address check and may be plain http.
 *
 * Redirects are followed here, one hop at a time under the same rules, at most
 * `maxRedirects`; a caller that asks for `redirect: 'manual'` (oauth4webapi always does)
 * gets the 3xx itself. One timeout covers the whole exchange, body included; the body is
 * buffered up to `maxBytes` (after decompression, so a gzip bomb is cut off too). No
 * agent, so no pooled connection skips the check, no proxy from the environment and no
 * cookie jar.
 */
import type { LookupAddress, LookupOptions } from 'node:dns'
import { lookup as dnsLookup } from 'node:dns/promises'
import { type IncomingMessage, type OutgoingHttpHeaders, request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib'
import { refusedAddressRange } from './address.js'
import { checkFetchableUrl, displayUrl, type ResolvedAddress, type SafeFetchPolicy, socketHost } from './policy.js'
import { isUnsafeUrlError, UnsafeUrlError } from './unsafe-url-error.js'

export const DEFAULT_TIMEOUT_MS = 5_000
export const DEFAULT_MAX_BYTES = 1_048_576
export const DEFAULT_MAX_REDIRECTS = 3

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])
/** Dropped with the body when a redirect turns the request into a GET (Fetch §4.4 step 12). */
const BODY_HEADERS = ['content-encoding', 'content-language', 'content-location', 'content-type', 'content-length']
/** Not sent to another origin after a redirect: the credential was meant for the first one (Fetch §4.4 step 13). */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie']
/** Connection-level headers node:http writes itself. */
const HOP_HEADERS = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'expect', 'te', 'trailer', 'upgrade']

type Resolve = (hostname: string) => Promise<readonly ResolvedAddress[]>
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

interface Hop {
  readonly url: URL
  readonly trusted: boolean
}

interface Outgoing {
  readonly method: string
  readonly headers: Headers
  readonly body: Uint8Array | null
}

async function systemLookup(hostname: string): Promise<readonly ResolvedAddress[]> {
  return dnsLookup(hostname, { all: true, order: 'verbatim' })
}

/** Resolves `hostname` and, unless its origin is trusted, refuses it when any address is refused. */
async function screen(resolve: Resolve, hostname: string, hop: Hop): Promise<LookupAddress[]> {
  const addresses: LookupAddress[] = []
  for (const { address } of await resolve(hostname)) {
    const family = isIP(address)
    if (!hop.trusted) {
      const range = refusedAddressRange(address)
      if (range !== null) {
        throw new UnsafeUrlError('address', displayUrl(hop.url), `${hostname} resolves to ${address}, ${range}`)
      }
    }
    if (family !== 0) addresses.push({ address, family })
  }
  return addresses
}

/**
 * The `lookup` node:net calls when the socket connects: the only resolution of the hop,
 * so the socket connects to nothing but what `screen` passed.
 */
function connectLookup(resolve: Resolve, hop: Hop) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0)
    screen(resolve, hostname, hop).then(
      (addresses) => {
        const usable = family === 0 ? addresses : addresses.filter((entry) => entry.family === family)
        const [chosen] = usable
        // Out of the promise chain: an exception in node's callback must not be taken for a lookup failure.
        process.nextTick(() => {
          if (chosen === undefined) {
            const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`)
            error.code = 'ENOTFOUND'
            callback(error, '')
          } else if (options.all === true) callback(null, usable)
          else callback(null, chosen.address, chosen.family)
        })
      },
      (error: NodeJS.ErrnoException) => process.nextTick(() => callback(error, '')),
    )
  }
}

function send(hop: Hop, outgoing: Outgoing, resolve: Resolve, signal: AbortSignal): Promise<IncomingMessage> {
  const headers: OutgoingHttpHeaders = Object.fromEntries(outgoing.headers)
  if (outgoing.body !== null) headers['content-length'] = String(outgoing.body.byteLength)
  else if (['POST', 'PUT', 'PATCH'].includes(outgoing.method)) headers['content-length'] = '0'
  const request = hop.url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolvePromise, reject) => {
    const req = request({
      protocol: hop.url.protocol,
      hostname: socketHost(hop.url),
      port: hop.url.port === '' ? undefined : Number(hop.url.port),
      path: `${hop.url.pathname}${hop.url.search}`,
      method: outgoing.method,
      headers,
      agent: false,
      lookup: connectLookup(resolve, hop),
      signal,
    })
    req.once('response', resolvePromise)
    req.once('error', reject)
    if (outgoing.body === null) req.end()
    else req.end(outgoing.body)
  })
}

function tooLarge(url: URL, maxBytes: number): UnsafeUrlError {
  return new UnsafeUrlError('too_large', displayUrl(url), `Response body over ${maxBytes} bytes`)
}

/** Undoes one content coding within `maxBytes`; `null` for a coding left to the caller. */
function decode(data: Buffer, coding: string, maxBytes: number): Buffer | null {
  const limit = { maxOutputLength: maxBytes }
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(data, limit)
    case 'deflate':
      // Servers send both zlib-wrapped and raw deflate under this name; fetch accepts both.
      try {
        return inflateSync(data, limit)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw error
        return inflateRawSync(data, limit)
      }
    case 'br':
      return brotliDecompressSync(data, limit)
    default:
      return null
  }
}

async function readBody(res: IncomingMessage, url: URL, maxBytes: number): Promise<{ data: Buffer; decoded: boolean }> {
  const declared = Number(res.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy()
    throw tooLarge(url, maxBytes)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.byteLength
    if (size > maxBytes) throw tooLarge(url, maxBytes)
    chunks.push(chunk)
  }
  const raw = Buffer.concat(chunks, size)
  const coding = res.headers['content-encoding']?.trim().toLowerCase() ?? ''
  if (coding === '' || coding === 'identity') return { data: raw, decoded: false }
  try {
    const data = decode(raw, coding, maxBytes)
    return data === null ? { data: raw, decoded: false } : { data, decoded: true }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(url, maxBytes)
    throw error
  }
}

async function toResponse(res: IncomingMessage, outgoing: Outgoing, url: URL, redirected: boolean, maxBytes: number) {
  const status = res.statusCode ?? 0
  let body: Uint8Array<ArrayBuffer> | null = null
  let decoded = false
  if (outgoing.method === 'HEAD' || NULL_BODY_STATUSES.has(status)) res.destroy()
  else {
    const read = await readBody(res, url, maxBytes)
    body = new Uint8Array(read.data)
    decoded = read.decoded
  }
  const headers = new Headers()
  for (let index = 0; index + 1 < res.rawHeaders.length; index += 2) {
    headers.append(res.rawHeaders[index] as string, res.rawHeaders[index + 1] as string)
  }
  if (decoded) {
    headers.delete('content-encoding')
    headers.delete('content-length')
  }
  const response = new Response(body, { status, statusText: res.statusMessage ?? '', headers })
  // A constructed Response has an empty url; callers of fetch may read where it ended up.
  Object.defineProperties(response, { url: { value: url.href }, redirected: { value: redirected } })
  return response
}

/** The request for the next hop, as Fetch §4.4 (HTTP-redirect fetch) rewrites it. */
function redirectedRequest(outgoing: Outgoing, status: number, from: URL, to: URL): Outgoing {
  const headers = new Headers(outgoing.headers)
  let { method, body } = outgoing
  if (((status === 301 || status === 302) && method === 'POST') || (status === 303 && method !== 'GET' && method !== 'HEAD')) {
    method = 'GET'
    body = null
    for (const name of BODY_HEADERS) headers.delete(name)
  }
  if (from.origin !== to.origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name)
  return { method, headers, body }
}

function firstRequestHeaders(source: Headers): Headers {
  const headers = new Headers(source)
  for (const name of HOP_HEADERS) headers.delete(name)
  if (!headers.has('accept')) headers.set('accept', '*/*')
  // Asked for unencoded bodies; a server that compresses anyway is decoded within maxBytes.
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'identity')
  if (!headers.has('user-agent')) headers.set('user-agent', 'gatehouse-sso')
  return headers
}

/**
 * A `fetch` for URLs an organization admin typed: https only (any scheme on a trusted
 * origin), the connected address checked at connect time, redirects followed under the
 * same rules, one timeout for the whole exchange, the body capped and buffered. Refusals
 * throw `UnsafeUrlError`; network failures throw `TypeError('fetch failed')` with the
 * cause, as fetch does; the caller's own `signal` aborting rejects with its reason.
 * Works as oauth4webapi's `[customFetch]`, which passes `redirect: 'manual'` and so
 * receives redirects rather than following them.
 *
 * @example
 * const safeFetch = createSafeFetch({ trustedOrigins: exactOrigins(options.trustedOrigins ?? []) })
 * const response = await oauth.discoveryRequest(issuer, { [oauth.customFetch]: safeFetch })
 * const metadata = await safeFetch('https://idp.example.com/saml/metadata').then((r) => r.text())
 */
export function createSafeFetch(policy: SafeFetchPolicy): typeof fetch {
  const timeoutMs = policy.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxBytes = policy.maxBytes ?? DEFAULT_MAX_BYTES
  const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS
  const resolve = policy.lookup ?? systemLookup

  async function exchange(first: Hop, request: Request, signal: AbortSignal, at: (url: URL) => void): Promise<Response> {
    const body = request.body === null ? null : new Uint8Array(await request.arrayBuffer())
    let outgoing: Outgoing = { method: request.method, headers: firstRequestHeaders(request.headers), body }
    let hop = first
    for (let redirects = 0; ; redirects += 1) {
      at(hop.url)
      const res = await send(hop, outgoing, resolve, signal)
      const status = res.statusCode ?? 0
      const location = res.headers.location
      if (!REDIRECT_STATUSES.has(status) || location === undefined || request.redirect === 'manual') {
        return toResponse(res, outgoing, hop.url, redirects > 0, maxBytes)
      }
      res.destroy()
      const shown = displayUrl(hop.url)
      if (request.redirect === 'error') throw new UnsafeUrlError('redirects', shown, 'Redirected, and the caller allowed none')
      if (redirects >= maxRedirects) throw new UnsafeUrlError('redirects', shown, `More than ${maxRedirects} redirects`)
      let target: URL
      try {
        target = new URL(location, hop.url)
      } catch {
        throw new UnsafeUrlError('invalid_url', shown, 'Redirect Location is not a URL')
      }
      const next = checkFetchableUrl(target, policy)
      if (!next.ok) throw next.error
      outgoing = redirectedRequest(outgoing, status, hop.url, next.url)
      hop = next
    }
  }

  return async function safeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const first = checkFetchableUrl(input instanceof Request ? input.url : input, policy)
    if (!first.ok) throw first.error
    const request = new Request(input instanceof Request ? input : first.url, init)
    if (request.signal.aborted) throw request.signal.reason
    let current = first.url
    let timedOut = false
    const controller = new AbortController()
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
    const onCallerAbort = () => controller.abort(request.signal.reason)
    request.signal.addEventListener('abort', onCallerAbort, { once: true })
    try {
      return await exchange(first, request, controller.signal, (url) => {
        current = url
      })
    } catch (error) {
      if (timedOut) throw new UnsafeUrlError('timeout', displayUrl(current), `No complete answer within ${timeoutMs} ms`)
      if (request.signal.aborted) throw request.signal.reason
      if (isUnsafeUrlError(error)) throw error
      throw new TypeError('fetch failed', { cause: error })
    } finally {
      clearTimeout(timer)
      request.signal.removeEventListener('abort', onCallerAbort)
    }
  }
}
