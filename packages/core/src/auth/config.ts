/**
 * @module
 * The synchronous half of `createAuth`: everything that can be wrong with the
 * configuration is found here, at start-up, with a message that says how to
 * fix it.
 */
import { systemClock, type Clock } from '../crypto/clock.js'
import { createSecrets, validateSecrets, type Secrets } from '../crypto/keys.js'
import { cryptoRandom, generateToken, type Random } from '../crypto/random.js'
import { applyNaming } from '../db/naming.js'
import { coreSchema, mergeSchemas, type Schema } from '../db/schema.js'
import { createCookieConfig, type CookieConfig } from '../cookies/cookies.js'
import { createLogger, type Logger } from '../logging/logger.js'
import type { GatehouseOptions } from '../options.js'
import { createOriginMatcher } from '../security/origins.js'
import { buildSocialProviders } from '../social/registry.js'
import type { ConfiguredProvider } from '../types/social.js'

export interface ResolvedConfig {
  readonly options: GatehouseOptions
  readonly production: boolean
  readonly origin: string
  readonly basePath: string
  readonly baseURL: string
  readonly secrets: Secrets
  readonly isTrustedOrigin: (origin: string) => boolean
  readonly cookieConfig: CookieConfig
  readonly clock: Clock
  readonly random: Random
  readonly logger: Logger
  readonly schema: Schema
  readonly generateId: (model: string) => string
  readonly socialProviders: ReadonlyMap<string, ConfiguredProvider>
}

/**
 * Only for development: lets `createAuth` start without configuration. Every
 * instance that uses it says so loudly, and production refuses it.
 */
const DEVELOPMENT_SECRET = 'gatehouse-development-secret-do-not-use-in-production'

export function resolveConfig(options: GatehouseOptions): ResolvedConfig {
  const production = options.production ?? readEnv('NODE_ENV') === 'production'
  const logger = createLogger(options.logger)

  if (!options.baseURL) {
    throw new Error(
      'Gatehouse: `baseURL` is required (e.g. "https://app.example.com"). It is never taken from a request\'s Host header, which the client controls.',
    )
  }
  let url: URL
  try {
    url = new URL(options.baseURL)
  } catch {
    throw new Error(`Gatehouse: \`baseURL\` is not a valid URL: ${options.baseURL}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`Gatehouse: \`baseURL\` must be http or https: ${options.baseURL}`)
  }
  if (production && url.protocol === 'http:' && !isLoopback(url.hostname)) {
    // Cookies without `Secure` and credentials in clear text on every hop (docs/deployment.md#production-checklist).
    logger.warn(
      `baseURL ${url.origin} is http in production: session cookies are not marked Secure and travel unencrypted. Serve it over https (behind a proxy, the public https address is the baseURL).`,
    )
  }
  const basePath = normaliseBasePath(options.basePath ?? (url.pathname !== '/' ? url.pathname : '/api/auth'))

  // AUTH_SECRET is the name the docs and most auth libraries use; GATEHOUSE_SECRET, read first, stays for existing deployments.
  const secretInput = options.secret ?? (readEnv('GATEHOUSE_SECRET') || readEnv('AUTH_SECRET'))
  let secrets: Secrets
  if (secretInput === undefined || secretInput === '' || (Array.isArray(secretInput) && secretInput.length === 0)) {
    if (production) {
      throw new Error(
        'Gatehouse: a secret is required in production. Set `secret`, or the GATEHOUSE_SECRET or AUTH_SECRET environment variable (GATEHOUSE_SECRET is read first), to at least 32 random characters, e.g. the output of `openssl rand -base64 32`.',
      )
    }
    // Also printed by builds that import the auth module with `production: false` (`next build`): worded to inform, not to alarm.
    logger.warn(
      'no secret configured: cookies and tokens are signed with the built-in development secret. Fine for development and builds; a production process (NODE_ENV=production or `production: true`) refuses to start without AUTH_SECRET.',
    )
    secrets = createSecrets(DEVELOPMENT_SECRET)
  } else {
    const verdict = validateSecrets(secretInput, { production })
    if (!verdict.ok) throw new Error(`Gatehouse: ${verdict.message}`)
    if (verdict.warning) logger.warn(verdict.warning)
    secrets = createSecrets(secretInput)
  }

  if (production && options.database === undefined) {
    throw new Error(
      'Gatehouse: no `database` configured. In production give a SQLite file path or an adapter; the in-memory database loses everything on restart.',
    )
  }

  const signUp = options.emailAndPassword
  if (signUp?.preventEnumeration && signUp.requireEmailVerification !== true) {
    // Without it a new account signs in at once: its session cookie, or the sign-in that follows with the
    // chosen password, tells a new address from a taken one (docs/security.md#account-enumeration-at-sign-up).
    throw new Error('Gatehouse: `emailAndPassword.preventEnumeration` needs `emailAndPassword.requireEmailVerification: true`.')
  }

  const origin = url.origin
  const matchTrusted = createOriginMatcher([origin, ...(options.trustedOrigins ?? [])])
  const random = options.random ?? cryptoRandom
  const secure = options.advanced?.useSecureCookies ?? url.protocol === 'https:'
  const crossSubDomain = options.advanced?.crossSubDomainCookies

  return {
    options,
    production,
    origin,
    basePath,
    baseURL: `${origin}${basePath}`,
    secrets,
    isTrustedOrigin: matchTrusted,
    cookieConfig: createCookieConfig({
      prefix: options.advanced?.cookiePrefix ?? 'gatehouse',
      secure,
      ...(crossSubDomain?.enabled ? { crossSubDomain: { domain: crossSubDomain.domain } } : {}),
    }),
    clock: options.clock ?? systemClock,
    random,
    logger,
    // Names resolved once here: every adapter and generator reads the same final names (docs/adapters.md#naming-tables-and-columns).
    schema: applyNaming(
      mergeSchemas(
        coreSchema,
        ...(options.plugins ?? []).map((plugin) => plugin.schema),
        options.schema,
        options.user?.additionalFields ? { user: { fields: options.user.additionalFields } } : undefined,
        options.session?.additionalFields ? { session: { fields: options.session.additionalFields } } : undefined,
      ),
      options.naming,
    ),
    generateId: options.advanced?.generateId ?? (() => generateToken(random, 32)),
    socialProviders: buildSocialProviders(options.socialProviders, `${origin}${basePath}`),
  }
}

function normaliseBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  if (trimmed === '') return ''
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

/** A production build tried on this machine (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`) is not a deployment. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname)
}

/** Start-up only; handlers never read the environment. */
function readEnv(name: string): string | undefined {
  return typeof process === 'undefined' ? undefined : process.env[name]
}
