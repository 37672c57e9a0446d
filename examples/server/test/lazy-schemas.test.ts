/**
 * Start-up cost (docs/endpoints.md#schemas-built-on-first-use): every
 * endpoint of every first-party plugin the example server runs wraps its body
 * and query schemas in `z.lazy`, so creating the plugins builds none of them.
 */
import { admin } from '@gatehouse/admin'
import { billing } from '@gatehouse/billing'
import { magicLink } from '@gatehouse/magic-link'
import { oidcProvider } from '@gatehouse/oidc-provider'
import { organization } from '@gatehouse/organization'
import { passkey } from '@gatehouse/passkey'
import { twoFactor } from '@gatehouse/two-factor'
import { expect, it } from 'vitest'

it('no first-party plugin builds a route schema before its route is called', () => {
  const plugins = [
    organization({ teams: { enabled: true } }),
    admin(),
    magicLink({ sendMagicLink: () => undefined }),
    twoFactor(),
    passkey({ rpID: 'localhost', rpName: 'Test', origin: 'http://localhost:3000' }),
    oidcProvider({ loginPage: '/login', consentPage: '/consent' }),
    billing({ webhooks: { secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` } }),
  ]
  const eager: string[] = []
  let schemas = 0
  for (const plugin of plugins) {
    for (const [name, endpoint] of Object.entries(plugin.endpoints)) {
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
