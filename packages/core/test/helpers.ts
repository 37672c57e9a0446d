/**
 * Builders shared by the runtime tests: an auth instance on the in-memory
 * adapter with a fixed clock, and request shorthands.
 */
import { createAuth } from '../src/auth/create-auth.js'
import { manualClock } from '../src/crypto/clock.js'
import { memoryAdapter } from '../src/db/memory/index.js'
import type { GatehouseOptions } from '../src/options.js'
import type { GatehousePlugin } from '../src/plugins/types.js'

export const BASE = 'http://localhost:3000'
export const SECRET = 'test-secret-0123456789-abcdefghijklmnop'

type TestOptions = Omit<Partial<GatehouseOptions>, 'plugins'>

/** Typed by its plugin list only, so each test's endpoints show up on `api`. */
export function testAuth<const P extends readonly GatehousePlugin[] = []>(options: TestOptions & { plugins?: P } = {}) {
  const clock = manualClock()
  const auth = createAuth({
    baseURL: BASE,
    secret: SECRET,
    database: memoryAdapter(),
    logger: { disabled: true },
    clock,
    ...options,
    // Tests play the one proxy in front that writes x-forwarded-for (docs/rate-limits.md#behind-a-reverse-proxy);
    // pass `advanced.ipAddress` (even `{}`) for the library's own default.
    advanced: { ...options.advanced, ipAddress: options.advanced?.ipAddress ?? { trustedProxyCount: 1 } },
    plugins: options.plugins,
  })
  return Object.assign(auth, { clock })
}

export function request(path: string, init: RequestInit & { json?: unknown } = {}): Request {
  const { json, ...rest } = init
  const headers = new Headers(rest.headers)
  if (json !== undefined) headers.set('content-type', 'application/json')
  return new Request(`${BASE}${path}`, {
    ...rest,
    headers,
    ...(json !== undefined ? { method: rest.method ?? 'POST', body: JSON.stringify(json) } : {}),
  })
}
