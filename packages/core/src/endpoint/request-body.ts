/**
 * @module
 * Reads a request body with a size cap enforced while streaming, so an
 * oversized upload is cut off at the limit rather than buffered whole.
 * JSON and form bodies are parsed; webhook endpoints take the raw text,
 * because a signature covers the bytes as sent, not a re-serialisation.
 */
import { AuthError } from '../errors/catalogue.js'
import { CoreErrors } from '../errors/core-errors.js'

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > maxBytes) throw new AuthError(CoreErrors.PAYLOAD_TOO_LARGE)
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel()
      throw new AuthError(CoreErrors.PAYLOAD_TOO_LARGE)
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}

/** Parses a JSON or form-encoded body; an empty body is `undefined`. */
export async function readBody(request: Request, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(request, maxBytes)
  if (text.trim() === '') return undefined
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase()
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text))
  if (type === 'application/json' || type === '' || type?.endsWith('+json')) {
    try {
      return JSON.parse(text) as unknown
    } catch {
      throw new AuthError(CoreErrors.INVALID_JSON)
    }
  }
  throw new AuthError(CoreErrors.UNSUPPORTED_MEDIA_TYPE)
}

/** Query parameters as an object; a repeated key becomes an array. */
export function queryObject(search: URLSearchParams): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {}
  for (const [key, value] of search) {
    const existing = result[key]
    if (existing === undefined) result[key] = value
    else result[key] = Array.isArray(existing) ? [...existing, value] : [existing, value]
  }
  return result
}
