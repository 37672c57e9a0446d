/**
 * @module
 * Maps a request path below the base path to an endpoint. Static paths are a
 * map lookup; paths with `:param` segments are matched segment by segment.
 * A path with an empty segment (`//`), a dot segment, or a parameter that
 * decodes to a slash or backslash matches nothing: an odd path must never
 * reach another route.
 */
import { endpointMethods, type AnyEndpoint, type EndpointMap, type Method } from './define-endpoint.js'

export interface Route {
  readonly name: string
  readonly endpoint: AnyEndpoint
}

export type RouteMatch =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly Method[] }
  | { readonly kind: 'not-found' }

interface Entry {
  readonly segments: readonly string[]
  readonly byMethod: Map<Method, Route>
}

export interface Router {
  match(method: string, path: string): RouteMatch
}

/**
 * @example
 * const router = createRouter({ ok, resetPasswordCallback })
 * router.match('GET', '/reset-password/abc') // { kind: 'found', params: { token: 'abc' }, ... }
 */
export function createRouter(endpoints: EndpointMap): Router {
  const staticEntries = new Map<string, Entry>()
  const dynamicEntries: Entry[] = []

  for (const [name, endpoint] of Object.entries(endpoints)) {
    if (endpoint.serverOnly) continue
    const segments = endpoint.path.split('/').slice(1)
    // A declared path with an odd segment could never match (see `match`); leaving it out keeps it so.
    if (segments.some(isOddSegment)) continue
    const dynamic = segments.some((segment) => segment.startsWith(':'))
    let entry = dynamic
      ? dynamicEntries.find((candidate) => candidate.segments.join('/') === segments.join('/'))
      : staticEntries.get(endpoint.path)
    if (!entry) {
      entry = { segments, byMethod: new Map() }
      if (dynamic) dynamicEntries.push(entry)
      else staticEntries.set(endpoint.path, entry)
    }
    for (const method of endpointMethods(endpoint)) {
      const existing = entry.byMethod.get(method)
      if (existing) {
        throw new Error(`Route conflict: ${method} ${endpoint.path} is defined by "${existing.name}" and "${name}"`)
      }
      entry.byMethod.set(method, { name, endpoint })
    }
  }

  const resolve = (entry: Entry, method: string, params: Record<string, string>): RouteMatch => {
    const route = entry.byMethod.get(method as Method)
    if (route) return { kind: 'found', route, params }
    return { kind: 'method-not-allowed', allow: [...entry.byMethod.keys()] }
  }

  return {
    match(method, path) {
      // An exact static path is one an endpoint declared without odd segments (checked above);
      // looking it up first spares splitting the path on every request to a static route.
      const exact = staticEntries.get(path)
      if (exact) return resolve(exact, method, {})
      if (!path.startsWith('/')) return { kind: 'not-found' }
      const segments = path.split('/').slice(1)
      if (segments.some(isOddSegment)) return { kind: 'not-found' }
      for (const entry of dynamicEntries) {
        const params = matchSegments(entry.segments, segments)
        if (params) return resolve(entry, method, params)
      }
      return { kind: 'not-found' }
    },
  }
}

function isOddSegment(segment: string): boolean {
  return segment === '' || segment === '.' || segment === '..'
}

function matchSegments(pattern: readonly string[], actual: readonly string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null
  const params: Record<string, string> = {}
  for (let index = 0; index < pattern.length; index++) {
    const expected = pattern[index] as string
    const segment = actual[index] as string
    if (!expected.startsWith(':')) {
      if (expected !== segment) return null
      continue
    }
    let decoded: string
    try {
      decoded = decodeURIComponent(segment)
    } catch {
      return null
    }
    if (decoded === '' || decoded.includes('/') || decoded.includes('\\')) return null
    params[expected.slice(1)] = decoded
  }
  return params
}
