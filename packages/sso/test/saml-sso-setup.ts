/**
 * The SAML flow through the whole plugin: core with the organization and
 * sso plugins, an admin who registers a SAML provider for example.com and
 * verifies the domain (DNS TXT answers injected), and the steps a browser
 * takes between the app, the ACS and the test IdP.
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { organization } from '@gatehouse/organization'
import { Browser } from '../../core/test/social-fixtures.js'
import { sso, type SsoOptions } from '../src/index.js'
import { IDP_ENTITY_ID, IDP_SLO_URL, IDP_SSO_URL, type Identity, type SpView } from './saml-idp.js'
import { AUTH_BASE, BASE } from './saml-setup.js'

export { Browser }

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST'
export const PROVIDER_ID = 'acme-saml'
export const DOMAIN = 'example.com'

export function samlSsoAuth(options: SsoOptions = {}) {
  const txt = new Map<string, string[][]>()
  const auth = createAuth({
    baseURL: BASE,
    secret: 'saml-flow-secret-0123456789-abcdefghijklmnop',
    database: memoryAdapter(),
    logger: { disabled: true },
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: false },
    plugins: [organization(), sso({ ...options, domainVerification: { resolveTxt: async (name) => txt.get(name) ?? [], ...options.domainVerification } })],
  })
  return Object.assign(auth, { txt })
}

export type SamlSsoAuth = ReturnType<typeof samlSsoAuth>

export async function post(browser: Browser, path: string, json: unknown, origin = BASE): Promise<{ status: number; body: Record<string, unknown>; response: Response }> {
  const response = await browser.request(`${AUTH_BASE}${path}`, { json, headers: { origin } })
  const text = await response.clone().text()
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>), response }
}

/**
 * What an organization admin does: signs up, creates the organization,
 * registers the SAML provider, publishes the TXT record and verifies the domain.
 */
export async function setUpSamlProvider(
  auth: SamlSsoAuth,
  idp: Identity,
  samlConfig: Record<string, unknown> = {},
  options: { sso?: 'redirect' | 'post' } = {},
): Promise<{ admin: Browser; organizationId: string; register: Record<string, unknown> }> {
  const admin = new Browser(auth)
  const signUp = await post(admin, '/sign-up/email', { email: 'admin@acme-admin.test', password: 'correct horse battery staple', name: 'Admin' })
  if (signUp.status !== 200) throw new Error(`sign-up: ${signUp.status} ${JSON.stringify(signUp.body)}`)
  const created = await post(admin, '/organization/create', { name: 'Acme', slug: 'acme' })
  if (created.status !== 200) throw new Error(`organization: ${created.status} ${JSON.stringify(created.body)}`)
  const organizationId = created.body.id as string
  const register = await post(admin, '/sso/register', {
    providerId: PROVIDER_ID,
    issuer: IDP_ENTITY_ID,
    domain: DOMAIN,
    organizationId,
    samlConfig: {
      entryPoint: IDP_SSO_URL,
      cert: idp.cert,
      callbackUrl: '/dashboard',
      idpMetadata: {
        entityID: IDP_ENTITY_ID,
        singleSignOnService: [{ Binding: options.sso === 'post' ? POST : REDIRECT, Location: IDP_SSO_URL }],
        singleLogoutService: [{ Binding: REDIRECT, Location: IDP_SLO_URL }],
      },
      ...samlConfig,
    },
  })
  if (register.status !== 200) throw new Error(`register: ${register.status} ${JSON.stringify(register.body)}`)
  auth.txt.set(`_gatehouse-challenge.${DOMAIN}`, [[register.body.domainVerificationToken as string]])
  const verified = await post(admin, '/sso/verify-domain', { providerId: PROVIDER_ID })
  if (verified.status !== 204) throw new Error(`verify-domain: ${verified.status} ${JSON.stringify(verified.body)}`)
  return { admin, organizationId, register: register.body }
}

/** Our SP as the IdP sees it: the entity ID and ACS of the registered provider. */
export const SP: SpView = {
  entityId: `${AUTH_BASE}/sso/saml2/sp/metadata?providerId=${PROVIDER_ID}`,
  acs: `${AUTH_BASE}/sso/saml2/sp/acs/${PROVIDER_ID}`,
}
export const SLO = `${AUTH_BASE}/sso/saml2/sp/slo/${PROVIDER_ID}`

/**
 * The IdP's page posts the response to the ACS: a cross-site POST, from the
 * IdP's origin and without the app's SameSite=Lax cookies. Answers the
 * ACS's redirect target.
 */
export async function postToAcs(browser: Browser, form: { SAMLResponse: string; RelayState?: string }): Promise<{ status: number; location: string }> {
  const response = await browser.request(SP.acs, { form, omitCookies: true, headers: { origin: 'https://idp.test', 'sec-fetch-site': 'cross-site' } })
  return { status: response.status, location: response.headers.get('location') ?? '' }
}

/** The browser follows a redirect as a top-level GET, with its cookies. */
export async function follow(browser: Browser, location: string): Promise<{ status: number; location: string; response: Response }> {
  const response = await browser.request(new URL(location, AUTH_BASE).toString())
  return { status: response.status, location: response.headers.get('location') ?? '', response }
}

export async function sessionOf(browser: Browser): Promise<{ user: { id: string; email: string; emailVerified: boolean; name: string } } | null> {
  const response = await browser.request(`${AUTH_BASE}/get-session`)
  return (await response.json()) as { user: { id: string; email: string; emailVerified: boolean; name: string } } | null
}
