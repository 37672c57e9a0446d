/**
 * Fixtures for the provisioning tests: an auth with organization(), sso(),
 * admin() (bans) and two-factor() beside a test plugin whose one endpoint
 * plays the callback (it hands a profile to `completeSsoSignIn`, as the OIDC
 * callback and the SAML completion step do), organizations with a provider
 * verified through the real routes, readers of what a sign-in wrote, and
 * two-factor set up through its routes for the second step of `require`.
 */
import { defineEndpoint, definePlugin, type DatabaseHooks, type GatehouseOptions, type GatehousePlugin, type Row } from '@gatehouse/core'
import { organization, type OrganizationOptions } from '@gatehouse/organization'
import { twoFactor } from '@gatehouse/two-factor'
import { expect } from 'vitest'
import { z } from 'zod'
import { admin } from '../../admin/src/index.js'
import { accountAuth, authed, cookieHeader, PASSWORD } from '../../core/test/accounts.js'
import { appCode, secretOf } from '../../two-factor/test/fixtures.js'
import { challengeName } from '../src/domains/dns-challenge.js'
import type { SsoOptions } from '../src/options.js'
import { sso } from '../src/plugin.js'
import { completeSsoSignIn } from '../src/services/provision.js'
import { findProvider, readProvider } from '../src/services/provider-secrets.js'
import type { SsoLanding, SsoProfile, StoredProvider } from '../src/types.js'
import { createOrg, makeZone, newUser, oidcRegistration, post, type TestUser } from './management-fixtures.js'

export const LANDING: SsoLanding = { callbackURL: '/dashboard', errorURL: '/sign-in', newUserURL: '/welcome', requestSignUp: false }

/** A plugin whose one endpoint plays the callback: it signs `profile` in through the stored provider (or a given one). */
// Typed as any plugin: the test calls it over HTTP only, never through `api`.
export const completer: GatehousePlugin = definePlugin({
  id: 'sso-test-completer',
  endpoints: {
    completeForTest: defineEndpoint({
      method: 'POST',
      path: '/sso-test/complete',
      body: z.object({
        providerId: z.string(),
        profile: z.record(z.string(), z.unknown()),
        landing: z.record(z.string(), z.unknown()).optional(),
        provider: z.record(z.string(), z.unknown()).optional(),
      }),
      handler: async (ctx) => {
        const row = await findProvider(ctx.db, ctx.body.providerId)
        const stored = ctx.body.provider ? (ctx.body.provider as unknown as StoredProvider) : await readProvider(ctx, row!)
        return completeSsoSignIn(ctx, stored, ctx.body.profile as unknown as SsoProfile, { ...LANDING, ...(ctx.body.landing as Partial<SsoLanding>) })
      },
    }),
  },
})

export function provisionAuth(
  options: {
    sso?: SsoOptions
    organization?: OrganizationOptions
    databaseHooks?: DatabaseHooks
    core?: Omit<Partial<GatehouseOptions>, 'plugins'>
    /** More plugins after the usual ones (a schema extension, say). */
    plugins?: readonly GatehousePlugin[]
  } = {},
) {
  const zone = makeZone()
  const auth = accountAuth({
    ...options.core,
    databaseHooks: options.databaseHooks,
    plugins: [
      organization(options.organization),
      sso({ ...options.sso, domainVerification: { resolveTxt: zone.resolveTxt, ...options.sso?.domainVerification } }),
      admin(),
      twoFactor(),
      completer,
      ...(options.plugins ?? []),
    ],
  })
  return Object.assign(auth, { zone })
}

export type ProvisionAuth = ReturnType<typeof provisionAuth>

/** An organization with a provider of `domain`, verified unless told otherwise. */
export async function organizationWithProvider(auth: ProvisionAuth, options: { providerId?: string; domain?: string; verified?: boolean; twoFactor?: 'skip' | 'require' } = {}) {
  const providerId = options.providerId ?? 'acme'
  const domain = options.domain ?? 'acme.test'
  const owner = await newUser(auth)
  const org = await createOrg(auth, owner)
  const registered = await post(auth, 'register', owner, oidcRegistration(org.id, providerId, domain, options.twoFactor ? { twoFactor: options.twoFactor } : {}))
  expect(registered.status).toBe(200)
  if (options.verified !== false) {
    auth.zone.publish(challengeName(domain), registered.body.domainVerificationToken)
    expect((await post(auth, 'verify-domain', owner, { providerId })).status).toBe(204)
  }
  return { owner, org, providerId }
}

export function profile(email: string, extra: Partial<SsoProfile> = {}): SsoProfile {
  return { accountId: `sub-${email}`, email, emailVerified: true, name: 'Ada Lovelace', raw: {}, ...extra }
}

export interface Landed {
  readonly status: number
  readonly location: string
  readonly error: string | null
  readonly cookie: string
  /** The names of the cookies set (not cleared), without the `gatehouse.` prefix. */
  readonly cookiesSet: string[]
}

function setCookieNames(response: Response): string[] {
  return response.headers
    .getSetCookie()
    .filter((line) => !/Max-Age=0/.test(line))
    .map((line) => (line.split('=')[0] ?? '').replace(/^(__Secure-)?gatehouse\./, ''))
}

/** `cookie`: what the browser already holds (a trust cookie). */
export async function complete(
  auth: ProvisionAuth,
  providerId: string,
  signed: SsoProfile,
  extra: { landing?: Partial<SsoLanding>; provider?: StoredProvider; cookie?: string } = {},
): Promise<Landed> {
  const { cookie = '', ...body } = extra
  const response = await auth.handler(authed('/api/auth/sso-test/complete', cookie, { json: { providerId, profile: signed, ...body } }))
  const location = response.headers.get('location') ?? ''
  return {
    status: response.status,
    location,
    error: new URL(location, 'http://localhost:3000').searchParams.get('error'),
    cookie: cookieHeader(response),
    cookiesSet: setCookieNames(response),
  }
}

/** POST to a core or two-factor route (`/two-factor/verify-totp`) with the browser's cookies. */
export async function call(auth: ProvisionAuth, path: string, cookie: string, json: unknown = {}) {
  const response = await auth.handler(authed(`/api/auth${path}`, cookie, { json }))
  const text = await response.text()
  // Response bodies are JSON of unknown shape; tests assert on them.
  const body: any = text ? JSON.parse(text) : null
  return { status: response.status, body, cookie: cookieHeader(response, cookie), cookiesSet: setCookieNames(response) }
}

/** Turns two-factor on for `user` through its routes (enable, then a first code); the clock then moves one period on. */
export async function enrollTwoFactor(auth: ProvisionAuth, user: TestUser): Promise<{ secret: Uint8Array; code: () => string }> {
  const enabled = await call(auth, '/two-factor/enable', user.cookie, { password: PASSWORD })
  if (enabled.status !== 200) throw new Error(`enable failed: ${JSON.stringify(enabled.body)}`)
  const secret = secretOf(enabled.body.totpURI)
  const confirmed = await call(auth, '/two-factor/verify-totp', user.cookie, { code: appCode(secret, auth.clock.now()) })
  if (confirmed.status !== 200) throw new Error(`confirm failed: ${JSON.stringify(confirmed.body)}`)
  auth.clock.advance(30_000)
  return { secret, code: () => appCode(secret, auth.clock.now()) }
}

export async function sessionUser(auth: ProvisionAuth, cookie: string) {
  const response = await auth.handler(authed('/api/auth/get-session', cookie))
  return ((await response.json()) as { user?: { id: string; email: string; emailVerified: boolean } } | null)?.user ?? null
}

export async function rows(auth: ProvisionAuth, email: string) {
  const { db } = await auth.$context
  const user = await db.findOne<Row & { id: string; emailVerified: boolean }>({ model: 'user', where: { field: 'email', value: email } })
  const accounts = user ? await db.findMany<Row & { providerId: string; accountId: string }>({ model: 'account', where: { field: 'userId', value: user.id } }) : []
  const members = user ? await db.findMany<Row & { organizationId: string; role: string }>({ model: 'member', where: { field: 'userId', value: user.id } }) : []
  const sessions = user ? await db.findMany<Row & { amr: string | null; ssoProviderId: string | null }>({ model: 'session', where: { field: 'userId', value: user.id } }) : []
  return { user, accounts, members, sessions }
}
