/**
 * Start-up cost (docs/endpoints.md#schemas-built-on-first-use): every core
 * endpoint's body and query schema is a `z.lazy` wrapper, so loading core
 * builds none of them; the first request of a route builds its own.
 */
import { expect, it } from 'vitest'
import type { AnyEndpoint } from '../src/endpoint/define-endpoint.js'
import { coreEndpoints } from '../src/routes/index.js'

function eagerSchemas(endpoints: Readonly<Record<string, AnyEndpoint>>): string[] {
  return Object.entries(endpoints).flatMap(([name, endpoint]) =>
    (['body', 'query'] as const).filter((part) => endpoint[part] !== undefined && endpoint[part]._zod.def.type !== 'lazy').map((part) => `${name}.${part}`),
  )
}

it('every core endpoint builds its body and query schemas on first use', () => {
  expect(Object.keys(coreEndpoints).length).toBeGreaterThan(30)
  expect(eagerSchemas(coreEndpoints)).toEqual([])
})
