/**
 * @module
 * One call over the wire (docs/client.md#calls): POST with a JSON body when the route takes
 * one, otherwise GET with the input in the query string; cookies included
 * (`credentials: 'include'`), since the session lives in them. The answer
 * becomes `{ data, error }` and the promise never rejects: a server error
 * keeps its catalogue code, status and message; an answer that is not the
 * expected JSON, success or error alike, is a client-side validation error
 * (docs/client.md#errors) naming what did not match, never a silent `undefined`.
 */
import * as z from 'zod/mini'
import { ClientErrors, shapeError, type AuthClientError, type CallResult, type ErrorIssue } from './errors.js'
import type { ClientRoute } from './route.js'

export interface TransportOptions {
  /** The server's public URL, e.g. `https://app.example.com`. Defaults to the page's origin in a browser. */
  readonly baseURL?: string
  /** Where the handler is mounted. Defaults to the path of `baseURL` if it has one, else `/api/auth` (as on the server). */
  readonly basePath?: string
  /** Defaults to the global `fetch`, looked up at call time. */
  readonly fetch?: typeof fetch
  /**
   * For clients without cookies (a mobile app, a CLI): the session token kept by the
   * app and sent as `Authorization: Bearer`, with the server's `bearer` option on
   * (docs/sessions.md#bearer-tokens). `setToken` receives each `set-auth-token` the
   * server answers (sign-in, sign-up, a refresh) and null after a sign-out.
   *
   * @example
   * createAuthClient({ baseURL, bearer: { getToken: () => SecureStore.getItemAsync('token'), setToken: (token) => save(token) } })
   */
  readonly bearer?: BearerStorage
}

/** Where a client without cookies keeps its session token. */
export interface BearerStorage {
  getToken(): string | null | undefined | Promise<string | null | undefined>
  setToken(token: string | null): void | Promise<void>
}

/** Per call: extra headers (a server forwarding the browser's cookie, say) and an abort signal. */
export interface CallOptions {
  readonly headers?: HeadersInit
  readonly signal?: AbortSignal
}

export interface Transport {
  call(route: ClientRoute, input: unknown, options?: CallOptions): Promise<CallResult<unknown>>
  /** The absolute base (`https://app.example.com/api/auth`), for naming the tab-sync channel. */
  base(): string
}

const errorBody = z.object({
  code: z.string(),
  message: z.string(),
  issues: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
  minLength: z.optional(z.number()),
  maxLength: z.optional(z.number()),
})

/**
 * @example
 * const transport = createTransport({ baseURL: 'https://app.example.com' })
 * const { data, error } = await transport.call(coreRoutes.getSession, undefined)
 */
export function createTransport(options: TransportOptions): Transport {
  const base = baseResolver(options)
  return {
    base,
    async call(route, input, callOptions = {}) {
      const filled = fillPath(route, input)
      // Never sent: an empty, `.` or `..` segment would name another route once the URL is resolved.
      if (!filled.ok) return { data: null, error: shapeError(0, [{ path: `input.${filled.param}`, message: 'not a path segment' }]) }
      const { path, rest } = filled
      const url = new URL(`${base()}${path}`)
      const headers = new Headers(callOptions.headers)
      headers.set('accept', 'application/json')
      const init: RequestInit = { method: route.method, headers, credentials: 'include' }
      if (callOptions.signal) init.signal = callOptions.signal
      if (route.method === 'POST') {
        headers.set('content-type', 'application/json')
        // An omitted input is an empty object: an all-optional body still parses on the server.
        init.body = JSON.stringify(rest ?? {})
      } else {
        appendQuery(url, rest)
      }

      const fetchImpl = options.fetch ?? globalThis.fetch
      let status = 0
      let text: string
      try {
        const token = options.bearer ? await options.bearer.getToken() : null
        if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`)
        const response = await fetchImpl(url, init)
        status = response.status
        text = await response.text()
        if (options.bearer) await keepBearerToken(options.bearer, route, response)
        if (!response.ok) return { data: null, error: serverError(status, text) }
      } catch {
        // The request never got an answer (or its body never arrived): the caller's abort, or the network.
        return { data: null, error: failure(callOptions.signal?.aborted ? 'REQUEST_ABORTED' : 'NETWORK_ERROR') }
      }
      // 204 No Content (verify-domain, say) has no body to parse: its data is null.
      const json = status === 204 && text === '' ? { ok: true as const, value: null } : parseJson(text)
      if (!json.ok) return { data: null, error: shapeError(status, [{ path: 'response', message: 'not JSON' }]) }
      const parsed = z.safeParse(route.output, json.value)
      if (!parsed.success) return { data: null, error: shapeError(status, issuesOf(parsed.error)) }
      return { data: parsed.data, error: null }
    },
  }
}

/**
 * The token a response hands over: `set-auth-token` whenever the server set the
 * session cookie; none after a sign-out, which ends the session server-side.
 */
async function keepBearerToken(bearer: BearerStorage, route: ClientRoute, response: Response): Promise<void> {
  const token = response.headers.get('set-auth-token')
  if (token) return bearer.setToken(token)
  if (route.path === '/sign-out' && response.ok) return bearer.setToken(null)
}

function baseResolver(options: TransportOptions): () => string {
  if (options.baseURL !== undefined) {
    const url = new URL(options.baseURL)
    const base = `${url.origin}${normalisePath(options.basePath ?? (url.pathname !== '/' ? url.pathname : '/api/auth'))}`
    return () => base
  }
  const path = normalisePath(options.basePath ?? '/api/auth')
  return () => {
    const origin = typeof location === 'undefined' ? undefined : location.origin
    // A configuration mistake, not a failed call: outside a browser there is no page origin to fall back on.
    if (!origin) throw new Error('createAuthClient: `baseURL` is required outside a browser')
    return `${origin}${path}`
  }
}

function normalisePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  return trimmed.startsWith('/') || trimmed === '' ? trimmed : `/${trimmed}`
}

type FilledPath = { readonly ok: true; readonly path: string; readonly rest: unknown } | { readonly ok: false; readonly param: string }

/**
 * The route's path with its `:name` segments filled from the input, and the
 * input less those fields. Each value is one encoded segment, so a `/` in an
 * id cannot reach another route; values the URL parser would resolve as
 * dot segments (`.`, `..`, in any encoding) or leave empty are refused.
 */
function fillPath(route: ClientRoute, input: unknown): FilledPath {
  const params = route.params ?? []
  if (params.length === 0) return { ok: true, path: route.path, rest: input }
  const rest: Record<string, unknown> = typeof input === 'object' && input !== null ? { ...input } : {}
  const segments: string[] = []
  for (const segment of route.path.split('/')) {
    const name = segment.startsWith(':') ? segment.slice(1) : undefined
    if (name === undefined || !params.includes(name)) {
      segments.push(segment)
      continue
    }
    const value = String(rest[name] ?? '')
    if (/^\.{0,2}$/.test(value)) return { ok: false, param: name }
    segments.push(encodeURIComponent(value))
  }
  for (const name of params) delete rest[name]
  return { ok: true, path: segments.join('/'), rest: Object.keys(rest).length > 0 ? rest : undefined }
}

/** Query parameters from the input object: arrays repeat the key, Dates go as ISO text, absent values are left out. */
function appendQuery(url: URL, input: unknown): void {
  if (typeof input !== 'object' || input === null) return
  for (const [key, value] of Object.entries(input)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue
      url.searchParams.append(key, item instanceof Date ? item.toISOString() : String(item))
    }
  }
}

function parseJson(text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}

/** A non-2xx answer: the server's `{ code, message }` (docs/endpoints.md#errors), or, from anything else (a proxy's HTML page), a shape error. */
function serverError(status: number, text: string): AuthClientError {
  const json = parseJson(text)
  const parsed = json.ok ? z.safeParse(errorBody, json.value) : null
  if (!parsed?.success) return shapeError(status, [{ path: 'response', message: 'not a Gatehouse error' }])
  const { code, message, issues, minLength, maxLength } = parsed.data
  return {
    status,
    code,
    message,
    ...(issues ? { issues } : {}),
    ...(minLength === undefined ? {} : { minLength }),
    ...(maxLength === undefined ? {} : { maxLength }),
  }
}

function failure(code: 'NETWORK_ERROR' | 'REQUEST_ABORTED'): AuthClientError {
  const { status, message } = ClientErrors[code]
  return { status, code, message }
}

function issuesOf(error: z.core.$ZodError): ErrorIssue[] {
  return error.issues.map((issue) => ({
    path: ['response', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }))
}
