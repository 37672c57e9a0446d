/**
 * Start-up cost (docs/endpoints.md#schemas-built-on-first-use): every
 * endpoint of every first-party plugin the example server runs wraps its body
 * and query schemas in `z.lazy`, so creating the plugins builds none of them.
 */
import { expect, it } from 'vitest'
import { firstPartyPlugins } from './first-party-plugins.js'

it('no first-party plugin builds a route schema before its route is called', () => {
  const plugins = firstPartyPlugins()
  const eager: string[] = []
  let schemas = 0
  for (const plugin of plugins) {
    for (const [name, endpoint] of Object.entries('endpoints' in plugin ? plugin.endpoints : {})) {
      for (const part of [endpoint.body, endpoint.query]) {
        if (part === undefined) continue
        schemas += 1
        if (part._zod.def.type !== 'lazy') eager.push(`${plugin.id}: ${name}`)
      }
    }
  }
  expect(schemas).toBeGreaterThan(60)
  expect(eager).toEqual([])
})
