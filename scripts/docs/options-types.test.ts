/**
 * Options read from the environment compile under `exactOptionalPropertyTypes`
 * (on in `tsc --init`'s tsconfig): every optional property of core's options
 * and of each plugin's accepts an explicit `undefined`, as
 * `secret: process.env.AUTH_SECRET` passes (docs/getting-started.md#types).
 */
import { resolve } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { typeCheckBlocks } from './code-blocks.js'

const root = resolve(import.meta.dirname, '../..')

// Each check holds the worker for a while: let vitest's messages through between them, or its RPC times out.
beforeEach(() => new Promise((resolve) => setImmediate(resolve)))

/**
 * The optional properties, at any depth, that refuse `undefined`, as dotted
 * paths; functions, arrays and records keyed by any string (role maps, field
 * maps, social providers) are not walked into, nor the members of a union
 * (a logger or its options) but the keys they share.
 */
const rejecting = `type Walkable<T> = T extends (...args: never[]) => unknown ? never : T extends readonly unknown[] ? never : T extends object ? T : never
type Refusing<T, At extends string = ''> = {
  [K in keyof T & string]-?: string extends K
    ? never
    : ({} extends Pick<T, K> ? ({ [P in K]: undefined } extends Pick<T, K> ? never : \`\${At}\${K}\`) : never) | Refusing<Walkable<Exclude<T[K], undefined>>, \`\${At}\${K}.\`>
}[keyof T & string]
/** Compiles only when nothing refuses undefined; otherwise tsc prints the paths that do. */
type None<Paths extends never> = Paths`

const program = `import { createAuth, type AppleProviderConfig, type GatehouseOptions, type GenericOAuthConfig, type GenericOidcConfig, type GitlabProviderConfig, type LoggerOptions, type MicrosoftProviderConfig } from '@gatehouse/core'
import { admin } from '@gatehouse/admin'
import { billing } from '@gatehouse/billing'
import { magicLink } from '@gatehouse/magic-link'
import { oidcProvider } from '@gatehouse/oidc-provider'
import { organization } from '@gatehouse/organization'
import { passkey } from '@gatehouse/passkey'
import { twoFactor } from '@gatehouse/two-factor'
${rejecting}
export type Checked = [
  // A secondary storage's increment is a method the application implements (or not), never an option set to undefined.
  None<Exclude<Refusing<GatehouseOptions>, 'secondaryStorage.increment'>>,
  None<Refusing<NonNullable<Parameters<typeof admin>[0]>>>,
  None<Refusing<Parameters<typeof billing>[0]>>,
  None<Refusing<Parameters<typeof magicLink>[0]>>,
  None<Refusing<Parameters<typeof oidcProvider>[0]>>,
  None<Refusing<NonNullable<Parameters<typeof organization>[0]>>>,
  None<Refusing<NonNullable<Parameters<typeof passkey>[0]>>>,
  None<Refusing<NonNullable<Parameters<typeof twoFactor>[0]>>>,
  // Social providers and the logger's options sit behind string-keyed records and unions: named here.
  None<Refusing<AppleProviderConfig>>,
  None<Refusing<MicrosoftProviderConfig>>,
  None<Refusing<GitlabProviderConfig>>,
  None<Refusing<GenericOidcConfig>>,
  None<Refusing<GenericOAuthConfig>>,
  None<Refusing<LoggerOptions>>,
]

const env: Record<string, string | undefined> = {}
export const auth = createAuth({
  baseURL: 'http://localhost:3000',
  secret: env.AUTH_SECRET,
  appName: env.APP_NAME,
  database: env.DATABASE_PATH,
  session: { expiresIn: undefined, cookieCache: { enabled: undefined } },
  logger: { level: undefined },
  socialProviders: { github: { clientId: 'x', clientSecret: env.GITHUB_CLIENT_SECRET, redirectURI: env.GITHUB_REDIRECT_URI } },
  plugins: [
    organization({ creatorRole: env.CREATOR_ROLE, teams: undefined }),
    twoFactor({ issuer: env.APP_NAME }),
    passkey({ rpID: env.RP_ID, origin: env.ORIGIN }),
    admin({ defaultRole: env.DEFAULT_ROLE }),
    magicLink({ sendMagicLink: async () => {}, expiresIn: undefined }),
    oidcProvider({ loginPage: '/sign-in', consentPage: env.CONSENT_PAGE }),
    billing({ platform: { accessToken: 'polar_oat_x', server: undefined }, webhooks: { secret: 'whsec_x', path: env.WEBHOOK_PATH, onOrderPaid: undefined } }),
  ],
})`

describe('options under exactOptionalPropertyTypes', () => {
  it('every optional option of core and of each plugin accepts undefined', () => {
    const problems = typeCheckBlocks([{ file: 'options.ts', line: 1, language: 'ts', code: program }], root, { compilerOptions: { exactOptionalPropertyTypes: true }, blocksOnly: true })
    expect(problems).toEqual([])
  }, 180_000)

  it('the check names an option that refuses undefined', () => {
    const code = `${rejecting}\nexport type Checked = None<Refusing<{ readonly a?: string | undefined; readonly b?: { readonly c?: number } | undefined }>>`
    const problems = typeCheckBlocks([{ file: 'options.ts', line: 1, language: 'ts', code }], root, { compilerOptions: { exactOptionalPropertyTypes: true }, blocksOnly: true })
    expect(problems).toEqual([{ at: 'options.ts:9', message: expect.stringContaining(`Type '"b.c"' does not satisfy the constraint 'never'`) }])
  })
})
