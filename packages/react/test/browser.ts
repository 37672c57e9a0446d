/**
 * A browser's fetch, as far as a Gatehouse server can tell, over the
 * server's own `handler` in-process: no network, no mocked response. Cookies
 * set by answers are kept and sent with later requests (when the request's
 * credentials allow it, as a browser does), POSTs carry the page's Origin,
 * and every request is logged so tests can count them. Clients made with
 * one browser's `fetch` are tabs of that browser: they share its cookies.
 */
import { BASE } from '../../core/test/helpers.js'

export interface LoggedRequest {
  readonly method: string
  /** Path and query below the origin: `/api/auth/get-session`. */
  readonly path: string
  readonly credentials: RequestCredentials
  readonly contentType: string | null
  readonly body: string
}

export interface Browser {
  readonly fetch: typeof fetch
  readonly requests: LoggedRequest[]
  /** Requests made to `path` (below the base path, query ignored). */
  count(path: string): number
  /** The cookie jar: name to value. */
  readonly cookies: Map<string, string>
}

export function browser(server: { handler(request: Request): Promise<Response> }, origin = BASE): Browser {
  const cookies = new Map<string, string>()
  const requests: LoggedRequest[] = []

  const fetchOverHandler: typeof fetch = async (input, init) => {
    const request = new Request(input instanceof URL ? input.href : input, init)
    const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text()
    const url = new URL(request.url)
    requests.push({
      method: request.method,
      path: `${url.pathname}${url.search}`,
      credentials: init?.credentials ?? request.credentials,
      contentType: request.headers.get('content-type'),
      body,
    })
    const headers = new Headers(request.headers)
    const credentials = init?.credentials ?? request.credentials
    if (credentials !== 'omit' && cookies.size > 0) {
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '))
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') headers.set('origin', origin)
    const response = await server.handler(
      new Request(request.url, { method: request.method, headers, ...(body ? { body } : {}) }),
    )
    if (credentials !== 'omit') keepCookies(cookies, response)
    return response
  }

  return {
    fetch: fetchOverHandler,
    requests,
    cookies,
    count: (path) => requests.filter((entry) => entry.path.split('?')[0] === `/api/auth${path}`).length,
  }
}

/** Set-Cookie lines into the jar; a cookie cleared with Max-Age=0 or an empty value is removed. */
function keepCookies(jar: Map<string, string>, response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const first = line.split(';')[0] ?? ''
    const index = first.indexOf('=')
    const name = first.slice(0, index).trim()
    const value = first.slice(index + 1)
    if (/max-age=0(;|$)/i.test(line) || value === '') jar.delete(name)
    else jar.set(name, value)
  }
}
