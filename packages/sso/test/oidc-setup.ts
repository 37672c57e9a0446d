/**
 * The relying party of the OpenID Connect flow tests: core with the
 * organization and sso plugins at `BASE`, in-process, its clock the wall
 * clock shifted by hand (the IdPs and oauth4webapi read real time), DNS TXT
 * answers injected. `setUpProvider` does what an organization admin does:
 * signs up, creates the organization, registers the IdP and publishes the
 * domain's TXT record, then verifies it.
 */
import { createAuth } from '@gatehouse/core'
import { memoryAdapter } from '@gatehouse/core/adapters/memory'
import { organization } from '@gatehouse/organization'
import { Browser } from '../../core/test/social-fixtures.js'
import { sso, type SsoOptions } from '../src/index.js'
import { AUTH, BASE, CLIENT } from './oidc-fixtures.js'

export { Browser }
export const PASSWORD = 'correct horse battery staple'

function shiftedClock() {
  let offset = 0
  return { now: () => new Date(Date.now() + offset), advance: (ms: number) => void (offset += ms) }
}

export function ssoAuth(trustedOrigins: readonly string[], options: SsoOptions = {}) {
  const clock = shiftedClock()
  const txt = new Map<string, string[][]>()
  const auth = createAuth({
    baseURL: BASE,
    secret: 'sso-flow-secret-0123456789-abcdefghijklmnop',
    database: memoryAdapter(),
    logger: { disabled: true },
    clock,
    trustedOrigins: [...trustedOrigins],
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: false },
    plugins: [
      organization(),
      sso({
        ...options,
        domainVerification: { resolveTxt: async (name) => txt.get(name) ?? [], ...options.domainVerification },
      }),
    ],
  })
  return Object.assign(auth, { clock, txt })
}

export type SsoAuth = ReturnType<typeof ssoAuth>

export async function rows(auth: SsoAuth, model: string): Promise<Record<string, unknown>[]> {
  return (await auth.$context).adapter.findMany({ model })
}

/** A JSON POST from the app's own pages (origin header set). */
export async function post(browser: Browser, path: string, json: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await browser.request(`${AUTH}${path}`, { json, headers: { origin: BASE } })
  const text = await response.text()
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) }
}

export interface ProviderSetUp {
  readonly admin: Browser
  readonly organizationId: string
  readonly register: { status: number; body: Record<string, unknown> }
}

/**
 * Signs an admin up, creates the organization `slug`, registers the provider
 * and, unless `verify` is false, verifies its domain through the injected TXT record.
 */
export async function setUpProvider(
  auth: SsoAuth,
  provider: { providerId: string; issuer: string; domain: string; oidcConfig?: Record<string, unknown> },
  options: { slug?: string; verify?: boolean; adminEmail?: string } = {},
): Promise<ProviderSetUp> {
  const admin = new Browser(auth)
  const slug = options.slug ?? 'acme'
  const signUp = await post(admin, '/sign-up/email', { email: options.adminEmail ?? `admin@${slug}-admin.test`, password: PASSWORD, name: 'Admin' })
  if (signUp.status !== 200) throw new Error(`sign-up: ${signUp.status} ${JSON.stringify(signUp.body)}`)
  const created = await post(admin, '/organization/create', { name: slug, slug })
  if (created.status !== 200) throw new Error(`organization: ${created.status} ${JSON.stringify(created.body)}`)
  const organizationId = created.body.id as string
  const register = await post(admin, '/sso/register', {
    providerId: provider.providerId,
    issuer: provider.issuer,
    domain: provider.domain,
    organizationId,
    oidcConfig: { clientId: CLIENT.id, clientSecret: CLIENT.secret, ...provider.oidcConfig },
  })
  if (register.status === 200 && options.verify !== false) {
    auth.txt.set(`_gatehouse-challenge.${provider.domain}`, [[register.body.domainVerificationToken as string]])
    const verified = await post(admin, '/sso/verify-domain', { providerId: provider.providerId })
    if (verified.status !== 204) throw new Error(`verify-domain: ${verified.status} ${JSON.stringify(verified.body)}`)
  }
  return { admin, organizationId, register }
}

/** Starts an SSO sign-in in `browser`. */
export async function signInSso(browser: Browser, body: Record<string, unknown>) {
  return post(browser, '/sign-in/sso', { callbackURL: '/dashboard', ...body })
}

export async function sessionOf(browser: Browser): Promise<{ user: { id: string; email: string; emailVerified: boolean; name: string } } | null> {
  const response = await browser.request(`${AUTH}/get-session`)
  return (await response.json()) as { user: { id: string; email: string; emailVerified: boolean; name: string } } | null
}
