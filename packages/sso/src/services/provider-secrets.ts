/**
 * @module
 * Provider secrets at rest (docs/sso.md#secrets-at-rest). Inside the stored
 * `oidcConfig` / `samlConfig` JSON, `clientSecret`, `privateKey` and
 * `decryptionPvk` are sealed with AES-256-GCM under a key derived from the
 * auth secret for this purpose only (HKDF info `sso-provider-secret`, core's
 * per-purpose keys), like core's provider tokens (docs/social.md#token-storage).
 * A database dump holds no client secret and no private key. The additional
 * data binds each ciphertext to its provider and field, so a value copied
 * into another provider's row, or from `clientSecret` into `privateKey`, does
 * not open. Stored form: `v1.<iv>.<ciphertext+tag>`, base64url. Opening tries
 * every configured secret, newest first, so rotating the auth secret keeps
 * existing rows readable; they are sealed again under the newest key the next
 * time an update writes them.
 *
 * The IV comes from the platform CSPRNG, never from `ctx.random`: a seeded
 * generator (tests, or a misconfiguration) repeating an IV under one GCM key
 * would give the key's authentication away.
 */
import { AuthError, type AuthContext, type Row, type Secrets, type Store } from '@gatehouse/core'
import { SsoErrors } from '../errors.js'
import type { ProviderRow } from '../schema.js'
import type { OidcConfig, SamlConfig, SsoTwoFactorPolicy, StoredProvider } from '../types.js'

const PURPOSE = 'sso-provider-secret'
const VERSION = 'v1'
const IV_BYTES = 12

export type SecretField = 'clientSecret' | 'privateKey' | 'decryptionPvk'

/** The imported AES keys of one `Secrets`, newest first: `keys()` hands out fresh copies, so they are cached per owner. */
const imported = new WeakMap<Secrets, Promise<CryptoKey[]>>()

function aesKeys(secrets: Secrets): Promise<CryptoKey[]> {
  let keys = imported.get(secrets)
  if (!keys) {
    keys = Promise.all(
      secrets.keys(PURPOSE).map((raw) => crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt'])),
    )
    imported.set(secrets, keys)
  }
  return keys
}

function encode(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** Throws on text that is not base64url. */
function decode(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url')
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

function additionalData(providerId: string, field: SecretField): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify([PURPOSE, providerId, field]))
}

/**
 * @example
 * const sealed = await sealSecret(ctx.secrets, 'acme', 'clientSecret', body.oidcConfig.clientSecret)
 */
export async function sealSecret(secrets: Secrets, providerId: string, field: SecretField, secret: string): Promise<string> {
  const [key] = await aesKeys(secrets)
  if (!key) throw new Error('No secret configured')
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: additionalData(providerId, field) }, key, new TextEncoder().encode(secret))
  return `${VERSION}.${encode(iv)}.${encode(new Uint8Array(sealed))}`
}

/**
 * The secret, or null when the value is not ours, was tampered with, belongs to
 * another provider or field, or was sealed under a secret no longer configured.
 *
 * @example
 * const clientSecret = await openSecret(ctx.secrets, row.providerId, 'clientSecret', stored.clientSecret)
 */
export async function openSecret(secrets: Secrets, providerId: string, field: SecretField, stored: unknown): Promise<string | null> {
  if (typeof stored !== 'string') return null
  const [version, ivText, sealedText, extra] = stored.split('.')
  if (version !== VERSION || ivText === undefined || sealedText === undefined || extra !== undefined) return null
  let iv: Uint8Array<ArrayBuffer>
  let sealed: Uint8Array<ArrayBuffer>
  try {
    iv = decode(ivText)
    sealed = decode(sealedText)
  } catch {
    return null
  }
  if (iv.length !== IV_BYTES) return null
  for (const key of await aesKeys(secrets)) {
    try {
      const opened = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: additionalData(providerId, field) }, key, sealed)
      return new TextDecoder().decode(opened)
    } catch {
      // Another secret of the rotation may have sealed it.
    }
  }
  return null
}

const OIDC_SECRETS = ['clientSecret'] as const
const SAML_SECRETS = ['privateKey', 'decryptionPvk'] as const

/**
 * The JSON stored for a configuration, its secrets sealed.
 *
 * @example
 * await tx.create({ model: 'ssoProvider', data: { ..., oidcConfig: await sealConfig(ctx.secrets, providerId, oidc) } })
 */
export async function sealConfig(secrets: Secrets, providerId: string, config: OidcConfig | SamlConfig): Promise<string> {
  const sealed: Record<string, unknown> = { ...config }
  for (const field of [...OIDC_SECRETS, ...SAML_SECRETS]) {
    const value = sealed[field]
    if (typeof value === 'string' && value !== '') sealed[field] = await sealSecret(secrets, providerId, field, value)
    else delete sealed[field]
  }
  return JSON.stringify(sealed)
}

async function openConfig(secrets: Secrets, providerId: string, text: string | null, fields: readonly SecretField[]): Promise<Record<string, unknown> | null> {
  if (text === null || text === undefined || text === '') return null
  const parsed: unknown = JSON.parse(text)
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a configuration object')
  const config: Record<string, unknown> = { ...parsed }
  for (const field of fields) {
    if (config[field] === undefined) continue
    const opened = await openSecret(secrets, providerId, field, config[field])
    if (opened === null) throw new Error(`${field} does not open`)
    config[field] = opened
  }
  return config
}

/**
 * The provider with its configuration parsed and its secrets opened: what the
 * sign-in flows work from.
 *
 * @throws AuthError `PROVIDER_SECRET_UNREADABLE` (500) when the stored JSON is
 * broken or a secret does not open (the auth secret that sealed it is gone);
 * the log names the provider, never the value.
 *
 * @example
 * const row = await findProvider(ctx.db, 'acme')
 * const provider = row ? await readProvider(ctx, row) : null
 */
export async function readProvider(ctx: Pick<AuthContext, 'secrets' | 'logger'>, row: ProviderRow): Promise<StoredProvider> {
  let oidc: Record<string, unknown> | null
  let saml: Record<string, unknown> | null
  try {
    oidc = await openConfig(ctx.secrets, row.providerId, row.oidcConfig, OIDC_SECRETS)
    saml = await openConfig(ctx.secrets, row.providerId, row.samlConfig, SAML_SECRETS)
  } catch (error) {
    ctx.logger.error('sso: a provider configuration cannot be read (was the auth secret that sealed it removed?)', {
      providerId: row.providerId,
      error: error instanceof Error ? error.message : typeof error,
    })
    throw new AuthError(SsoErrors.PROVIDER_SECRET_UNREADABLE)
  }
  return {
    id: row.id,
    providerId: row.providerId,
    issuer: row.issuer,
    domain: row.domain,
    domainVerified: row.domainVerified === true,
    organizationId: row.organizationId,
    userId: row.userId ?? null,
    // Parsed from our own JSON, written only by sealConfig from a validated body.
    oidc: oidc as OidcConfig | null,
    saml: saml as SamlConfig | null,
    twoFactor: twoFactorPolicy(row.twoFactor),
  }
}

/** Anything but 'require' is 'skip': a hand-edited row cannot make the policy something the code does not know. */
export function twoFactorPolicy(value: unknown): SsoTwoFactorPolicy {
  return value === 'require' ? 'require' : 'skip'
}

/**
 * The stored row of `providerId`, secrets still sealed; null when there is none.
 *
 * @example
 * const row = await findProvider(ctx.db, ctx.params.providerId)
 */
export function findProvider(db: Store, providerId: string): Promise<ProviderRow | null> {
  return db.findOne<ProviderRow & Row>({ model: 'ssoProvider', where: { field: 'providerId', value: providerId } })
}
