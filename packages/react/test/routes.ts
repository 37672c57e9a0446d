/**
 * Checks shared by the route-table tests of core and plugins: a table's
 * routes against the server's endpoints, and answers for Dates left as text.
 */
import type { AnyEndpoint } from '@gatehouse/core'
import { expect } from 'vitest'
import type { CallResult } from '../src/client/errors.js'
import { isRoute, type ClientRoute, type RouteTable } from '../src/client/route.js'

/** Every route of a table with the name users call it by. */
export function flatten(table: RouteTable): Array<[string, ClientRoute]> {
  return Object.entries(table).flatMap(([name, entry]): Array<[string, ClientRoute]> =>
    isRoute(entry) ? [[name, entry]] : Object.entries(entry).map(([action, route]): [string, ClientRoute] => [`${name}.${action}`, route]),
  )
}

/**
 * Each route names a routed endpoint with its path and one of its methods;
 * every routed endpoint has a route unless `left out` says why not.
 */
export function expectTableMatches(
  table: RouteTable,
  endpoints: Readonly<Record<string, AnyEndpoint>>,
  leftOut: Readonly<Record<string, string>>,
): void {
  const routes = flatten(table)
  for (const [name, route] of routes) {
    const endpoint = endpoints[route.endpoint]
    expect(endpoint, `${name} names ${route.endpoint}`).toBeDefined()
    expect({ name, path: route.path, serverOnly: endpoint?.serverOnly === true }).toEqual({ name, path: endpoint?.path, serverOnly: false })
    const methods = typeof endpoint?.method === 'string' ? [endpoint.method] : endpoint?.method
    expect(methods, `${name} is ${route.method}`).toContain(route.method)
    // POST when the endpoint takes a body (docs/client.md#calls).
    if (endpoint?.body) expect(route.method, `${name} has a body`).toBe('POST')
  }
  const named = new Set(routes.map(([, route]) => route.endpoint))
  const missing = Object.entries(endpoints)
    .filter(([key, endpoint]) => !endpoint.serverOnly && !named.has(key) && !(key in leftOut))
    .map(([key]) => key)
  expect(missing).toEqual([])
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/** Paths of strings that look like Dates in a parsed answer: a shape that forgot to revive one. */
export function datesLeftAsText(value: unknown, path = 'response', allowed: readonly string[] = []): string[] {
  if (typeof value === 'string') return ISO_DATE.test(value) && !allowed.some((field) => path.endsWith(`.${field}`)) ? [path] : []
  if (Array.isArray(value)) return value.flatMap((item, index) => datesLeftAsText(item, `${path}.${index}`, allowed))
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    return Object.entries(value).flatMap(([key, item]) => datesLeftAsText(item, `${path}.${key}`, allowed))
  }
  return []
}

/**
 * A walk through a client's routes: `ok` makes one call, insists it
 * succeeded and keeps its answer; `expectComplete` then checks that no answer
 * left a Date as text and that every named route was called.
 *
 * @example
 * const tour = routeTour()
 * await tour.ok('create', client.notes.create({ text: 'hi' }))
 * tour.expectComplete(Object.keys(notesRoutes.notes))
 */
export function routeTour() {
  const answers: Array<[string, unknown]> = []
  return {
    answers,
    async ok<T>(name: string, call: Promise<CallResult<T>>): Promise<T> {
      const result = await call
      expect(result.error, name).toBeNull()
      answers.push([name, result.data])
      return result.data as T
    },
    /** `textFields`: fields that are ISO text on purpose (a user-defined string field, say). */
    expectComplete(routeNames: readonly string[] = [], textFields: readonly string[] = []): void {
      for (const [name, data] of answers) expect(datesLeftAsText(data, 'response', textFields), name).toEqual([])
      const called = new Set(answers.map(([name]) => name))
      expect(routeNames.filter((name) => !called.has(name))).toEqual([])
    },
  }
}
