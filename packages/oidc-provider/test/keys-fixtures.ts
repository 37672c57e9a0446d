/**
 * Fixtures for the signing-key tests: an auth with the provider on the
 * in-memory adapter and a manual clock, further instances sharing its
 * database (as processes share one), and a context for calling the key
 * functions directly.
 */
import type { Adapter } from '@gatehouse/core'
import { createLocalJWKSet, type JWK } from 'jose'
import { request, testAuth } from '../../core/test/helpers.js'
import type { KeyContext } from '../src/keys/index.js'
import { resolveOidcOptions, type OidcProviderOptions } from '../src/options.js'
import { oidcProvider } from '../src/plugin.js'

type CoreOptions = NonNullable<Parameters<typeof testAuth>[0]>

export type KeysAuth = ReturnType<typeof keysAuth>

export function keysAuth(options: Partial<OidcProviderOptions> = {}, core: CoreOptions = {}) {
  const resolved = resolveOidcOptions({ loginPage: '/login', ...options })
  // The same options the plugin resolves: the key functions read them as the routes do.
  const auth = testAuth({ ...core, plugins: [oidcProvider({ loginPage: '/login', ...options })] })
  return Object.assign(auth, {
    resolved,
    /** What an endpoint hands the key functions. */
    ctx: async (): Promise<KeyContext> => ({ auth: await auth.$context }),
    adapter: async (): Promise<Adapter> => (await auth.$context).adapter,
  })
}

/** Another instance (another process) on the same database, with its own clock and key cache. */
export async function sibling(of: KeysAuth, options: Partial<OidcProviderOptions> = {}, core: CoreOptions = {}): Promise<KeysAuth> {
  const adapter = await of.adapter()
  const other = keysAuth(options, { ...core, database: () => adapter })
  other.clock.set(of.clock.now())
  return other
}

export async function fetchJwks(auth: KeysAuth): Promise<{ response: Response; body: { keys: JWK[] } }> {
  const response = await auth.handler(request('/api/auth/jwks'))
  return { response, body: (await response.json()) as { keys: JWK[] } }
}

/** A jose key set over what GET /jwks serves: what a relying party verifies with. */
export async function relyingPartyKeys(auth: KeysAuth) {
  return createLocalJWKSet((await fetchJwks(auth)).body)
}

export async function storedKeys(auth: KeysAuth) {
  const adapter = await auth.adapter()
  return adapter.findMany<{ id: string; alg: string; publicKey: string; privateKey: string; supersedes: string; createdAt: Date; activatesAt: Date; expiresAt: Date }>({
    model: 'jwks',
    sortBy: { field: 'createdAt', direction: 'asc' },
  })
}
