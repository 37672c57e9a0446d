/**
 * Fixtures for the provider management, domain and provisioning tests: an
 * auth with organization() and sso() on the in-memory adapter (or a given
 * database), a DNS zone the tests write TXT records into (the injected
 * `resolveTxt`), users and organizations made through the real routes, and
 * request shorthands that return status and parsed body.
 */
import type { GatehouseOptions } from '@gatehouse/core'
import { organization, type OrganizationOptions } from '@gatehouse/organization'
import { accountAuth, authed } from '../../core/test/accounts.js'
import { sso } from '../src/plugin.js'
import type { SsoOptions } from '../src/options.js'

export { BASE } from '../../core/test/helpers.js'
export { addMember, createOrg, newUser, type TestUser } from '../../organization/test/fixtures.js'
import type { TestUser } from '../../organization/test/fixtures.js'

export const ISSUER = 'https://idp.acme.test'

type CoreOptions = Omit<Partial<GatehouseOptions>, 'plugins'>

/** An auth with organization() and sso(); `zone` holds the TXT records verify-domain finds. */
export function ssoAuth(options: { sso?: SsoOptions; organization?: OrganizationOptions; core?: CoreOptions } = {}) {
  const zone = makeZone()
  const auth = accountAuth({
    ...options.core,
    plugins: [
      organization(options.organization),
      sso({ ...options.sso, domainVerification: { resolveTxt: zone.resolveTxt, ...options.sso?.domainVerification } }),
    ],
  })
  return Object.assign(auth, { zone })
}

export type SsoAuth = ReturnType<typeof ssoAuth>
export type AnyAuth = Pick<SsoAuth, 'handler' | '$context' | 'clock'>

/** TXT records by name, the lookups made, and an outage switch. */
export function makeZone() {
  const zone = {
    records: new Map<string, string[][]>(),
    lookups: [] as string[],
    down: false,
    publish(name: string, text: string) {
      zone.records.set(name, [...(zone.records.get(name) ?? []), [text]])
    },
    resolveTxt: async (name: string): Promise<string[][]> => {
      zone.lookups.push(name)
      if (zone.down) throw Object.assign(new Error('queryTxt ESERVFAIL'), { code: 'ESERVFAIL' })
      const answer = zone.records.get(name)
      if (!answer) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
      return answer
    },
  }
  return zone
}

export interface Reply {
  readonly status: number
  // Response bodies are JSON of unknown shape; tests assert on them.
  readonly body: any
}

async function reply(response: Response): Promise<Reply> {
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

/** POST with a JSON body to `/api/auth/sso/<path>`. */
export async function post(auth: AnyAuth, path: string, caller: TestUser | null, json: unknown = {}): Promise<Reply> {
  return reply(await auth.handler(authed(`/api/auth/sso/${path}`, caller?.cookie ?? '', { json })))
}

/** GET `/api/auth/sso/<path>` with query parameters. */
export async function get(auth: AnyAuth, path: string, caller: TestUser | null, query: Record<string, string> = {}): Promise<Reply> {
  const search = new URLSearchParams(query).toString()
  return reply(await auth.handler(authed(`/api/auth/sso/${path}${search ? `?${search}` : ''}`, caller?.cookie ?? '')))
}

/** A register body for an OIDC provider of `domain` in `organizationId`. */
export function oidcRegistration(organizationId: string, providerId: string, domain = 'acme.test', extra: Record<string, unknown> = {}) {
  return {
    providerId,
    organizationId,
    issuer: ISSUER,
    domain,
    // The endpoints given, discovery skipped: nothing is fetched (discovery at registration has its own test).
    oidcConfig: {
      clientId: `client-${providerId}-abcd`,
      clientSecret: `secret-of-${providerId}-0123456789`,
      skipDiscovery: true,
      authorizationEndpoint: `${ISSUER}/authorize`,
      tokenEndpoint: `${ISSUER}/token`,
      jwksEndpoint: `${ISSUER}/jwks`,
    },
    ...extra,
  }
}

/** A self-signed certificate's PEM body is not needed for storage tests: any text is stored, and summarized as unparsable. */
export const SAML_CERT = 'MIIBfake'
export const SAML_KEY = '-----BEGIN PRIVATE KEY-----\nsp-signing-key-material\n-----END PRIVATE KEY-----'
export const SAML_DECRYPTION_KEY = '-----BEGIN PRIVATE KEY-----\nsp-decryption-key-material\n-----END PRIVATE KEY-----'

/** A register body for a SAML provider. */
export function samlRegistration(organizationId: string, providerId: string, domain = 'acme.test') {
  return {
    providerId,
    organizationId,
    issuer: ISSUER,
    domain,
    samlConfig: {
      entryPoint: `${ISSUER}/saml/sso`,
      cert: SAML_CERT,
      privateKey: SAML_KEY,
      decryptionPvk: SAML_DECRYPTION_KEY,
      idpMetadata: { entityID: `${ISSUER}/saml` },
    },
  }
}
