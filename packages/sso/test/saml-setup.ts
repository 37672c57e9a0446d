/**
 * An auth with the SAML services mounted through a small test plugin: two
 * endpoints that start a sign-in and validate a posted response for
 * providers held in memory, and the HTTP-POST binding's page. It drives startSamlSignIn and
 * validateSamlResponse through core's real endpoint layer (cookies,
 * verification table, origin check) without the provider routes.
 */
import { createAuth, defineEndpoint, definePlugin, memoryStorage, type SecondaryStorage } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { z } from 'zod'
import { samlAuthnRequestPage } from '../src/routes/saml/authn-request.js'
import { samlPolicy, type SamlPolicy } from '../src/saml/policy.js'
import { startSamlSignIn } from '../src/saml/start.js'
import { validateSamlResponse, type SamlValidation } from '../src/saml/validate.js'
import { spUrls } from '../src/saml/urls.js'
import type { SamlConfig, StoredProvider } from '../src/types.js'
import { IDP_ENTITY_ID, IDP_SSO_URL, type SpView } from './saml-idp.js'

export const BASE = 'http://localhost:3000'
export const AUTH_BASE = `${BASE}/api/auth`
const SECRET = 'saml-test-secret-0123456789-abcdefghijklmnop'

export function samlProvider(providerId: string, saml: Partial<SamlConfig> & { cert: string }): StoredProvider {
  return {
    id: `row-${providerId}`,
    providerId,
    issuer: IDP_ENTITY_ID,
    domain: 'example.com',
    domainVerified: true,
    organizationId: 'org-1',
    userId: null,
    oidc: null,
    twoFactor: 'skip',
    saml: {
      issuer: IDP_ENTITY_ID,
      entryPoint: IDP_SSO_URL,
      callbackUrl: '/dashboard',
      idpMetadata: { entityID: IDP_ENTITY_ID },
      ...saml,
    },
  }
}

/** How the test IdP sees our SP for `provider`: its entity ID and ACS URL. */
export function spView(provider: StoredProvider, encryptCert?: string): SpView {
  const urls = spUrls({ auth: { baseURL: AUTH_BASE } }, provider)
  return { entityId: urls.entityId, acs: urls.acs, ...(encryptCert ? { encryptCert } : {}) }
}

export interface SamlTestAuth {
  readonly handler: (request: Request) => Promise<Response>
  readonly policy: SamlPolicy
  /** Starts a sign-in in a browser: the URL to follow and the browser's cookie. */
  start(providerId: string, landing?: { callbackURL?: string; errorCallbackURL?: string }): Promise<{ url: string; cookie: string }>
  /** Posts a SAMLResponse to the test ACS, as the IdP's form would. */
  post(providerId: string, form: { SAMLResponse: string; RelayState?: string }): Promise<SamlValidation>
  verificationRows(prefix: string): Promise<number>
}

export async function samlTestAuth(
  providers: readonly StoredProvider[],
  options: { policy?: Partial<SamlPolicy>; secondaryStorage?: SecondaryStorage | 'memory' } = {},
): Promise<SamlTestAuth> {
  const byId = new Map(providers.map((provider) => [provider.providerId, provider]))
  const policy = samlPolicy(options.policy)
  const find = (providerId: string) => {
    const provider = byId.get(providerId)
    if (!provider) throw new Error(`no test provider ${providerId}`)
    return provider
  }
  const plugin = definePlugin({
    id: 'saml-test',
    // The provider table, as far as the replay store's lock needs it.
    schema: { ssoProvider: { fields: { providerId: { type: 'string', unique: true } } } },
    endpoints: {
      // The HTTP-POST binding's page, the one SAML route that needs no provider look-up.
      samlAuthnRequestPage,
      samlTestStart: defineEndpoint({
        method: 'POST',
        path: '/saml-test/start',
        body: z.object({ providerId: z.string(), callbackURL: z.string().optional(), errorCallbackURL: z.string().optional() }),
        handler: async (ctx) => ({
          url: await startSamlSignIn(ctx, find(ctx.body.providerId), {
            callbackURL: ctx.body.callbackURL ?? '/',
            errorURL: ctx.body.errorCallbackURL ?? null,
            newUserURL: null,
            requestSignUp: false,
          }),
        }),
      }),
      samlTestAcs: defineEndpoint({
        method: 'POST',
        path: '/saml-test/acs/:providerId',
        metadata: { skipOriginCheck: true, maxBodyBytes: 512 * 1024 },
        handler: async (ctx) => validateSamlResponse(ctx, find(ctx.params.providerId ?? ''), (ctx.body ?? {}) as Record<string, string>, policy),
      }),
    },
  })
  const auth = createAuth({
    baseURL: BASE,
    secret: SECRET,
    database: memoryAdapter(),
    logger: { disabled: true },
    rateLimit: { enabled: false },
    ...(options.secondaryStorage ? { secondaryStorage: options.secondaryStorage === 'memory' ? memoryStorage() : options.secondaryStorage } : {}),
    plugins: [plugin],
  })
  const context = await auth.$context
  for (const provider of providers) {
    await context.db.create({ model: 'ssoProvider', data: { id: provider.id, providerId: provider.providerId } })
  }
  return {
    handler: (request) => auth.handler(request),
    policy,
    async start(providerId, landing = {}) {
      const response = await auth.handler(
        new Request(`${AUTH_BASE}/saml-test/start`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: BASE },
          body: JSON.stringify({ providerId, ...landing }),
        }),
      )
      if (response.status !== 200) throw new Error(`start answered ${response.status}: ${await response.text()}`)
      const { url } = (await response.json()) as { url: string }
      const cookie = response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
      return { url, cookie }
    },
    async post(providerId, form) {
      const response = await auth.handler(
        new Request(`${AUTH_BASE}/saml-test/acs/${providerId}`, {
          method: 'POST',
          // The IdP's page posts the form cross-site.
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.test' },
          body: new URLSearchParams(form),
        }),
      )
      if (response.status !== 200) throw new Error(`acs answered ${response.status}: ${await response.text()}`)
      return (await response.json()) as SamlValidation
    },
    async verificationRows(prefix) {
      const rows = await context.db.findMany<{ identifier: string }>({ model: 'verification' })
      return rows.filter((row) => row.identifier.startsWith(prefix)).length
    },
  }
}

/** The RelayState of a redirect URL we made. */
export function relayStateOf(url: string): string {
  return new URL(url).searchParams.get('RelayState') ?? ''
}
