/**
 * @module
 * The signing keys: made on first use, kept in the `jwks` table, rotated by
 * age, and held in memory per auth instance for a short while.
 *
 * - Signing period: a key signs from `activatesAt` until `expiresAt`
 *   (`rotationInterval` later, 30 days by default; the shortest any plugin asks for). Of the keys in
 *   their period, the one activated last signs.
 * - Pre-publication: in the last {@link prepublishWindow} of a key's period
 *   (a day, or a quarter of the interval if shorter), the next sign or JWKS
 *   request makes its successor, published at once but activated only when
 *   the predecessor's period ends. Relying parties that cache the JWKS thus
 *   hold the new key before its first token. When nothing ran in that window
 *   (or the key cannot be decrypted) the successor activates at once.
 * - Race safety: a new key carries `supersedes` = the kid it replaces (or
 *   `genesis:{alg}`), a unique column. Of several processes that decide to
 *   make the same successor, one insert wins; the others hit the unique
 *   constraint, re-read, and use the winner's key.
 * - Publication: a key's public half stays in the JWKS until its signing
 *   period ended one token lifetime (the longest any plugin declares: the
 *   OIDC provider's access and ID Tokens, session JWTs) plus a margin for
 *   clock skew ago; then the row is deleted.
 * - Cache: the rows are re-read at most every {@link KEY_CACHE_TTL_MS}, so a
 *   rotation made by another process is seen within a minute; decrypted
 *   private keys are kept by kid, so signing is no database read and no
 *   decryption.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose'
import { isUniqueViolation } from '../db/adapter.js'
import type { AuthContext } from '../types/contract.js'
import { isSigningAlgorithm, keyPairOptions, type SigningAlgorithm } from './algorithms.js'
import { decryptPrivateKey, encryptPrivateKey } from './encryption.js'
import type { SigningKeyPolicy } from './policy.js'

/** What the key functions need of a request: any endpoint or hook context has it. */
export interface KeyContext {
  readonly auth: AuthContext
}

/** How long an instance trusts the rows it read before reading them again. */
export const KEY_CACHE_TTL_MS = 60_000
/** Seconds a retired key stays published beyond the token lifetime: clock skew between processes and relying parties. */
export const PUBLICATION_MARGIN_SECONDS = 300
/** Longest lead with which a successor key is published before it signs. */
export const PREPUBLISH_SECONDS = 86_400

const MODEL = 'jwks'
/** Bounds the loop: one fresh read, then rotations that other processes may win (each win is a fresh key, so one more round suffices). */
const MAX_ROTATION_ROUNDS = 5

export interface SigningKey {
  readonly kid: string
  readonly alg: SigningAlgorithm
  /** The public JWK as published: key parameters plus kid, alg and use. */
  readonly publicJwk: JWK
  readonly sealedPrivateKey: string
  readonly supersedes: string
  readonly createdAt: Date
  /** Start of the signing period. */
  readonly activatesAt: Date
  /** End of the signing period. */
  readonly expiresAt: Date
}

interface KeyRing {
  readonly loadedAt: number
  readonly keys: readonly SigningKey[]
}

interface InstanceState {
  ring: KeyRing | undefined
  loading: Promise<KeyRing> | undefined
  readonly rotations: Map<SigningAlgorithm, Promise<void>>
  readonly privateKeys: Map<string, Promise<CryptoKey | null>>
}

/** Per auth instance, so two `createAuth` calls in one process never share keys. */
const states = new WeakMap<AuthContext, InstanceState>()

function stateOf(auth: AuthContext): InstanceState {
  let state = states.get(auth)
  if (!state) {
    state = { ring: undefined, loading: undefined, rotations: new Map(), privateKeys: new Map() }
    states.set(auth, state)
  }
  return state
}

function parseRow(row: Record<string, unknown>): SigningKey | null {
  const { id, alg, publicKey, privateKey, supersedes, createdAt, activatesAt, expiresAt } = row
  if (typeof id !== 'string' || !isSigningAlgorithm(alg) || typeof publicKey !== 'string' || typeof privateKey !== 'string') return null
  if (typeof supersedes !== 'string' || !(createdAt instanceof Date) || !(activatesAt instanceof Date) || !(expiresAt instanceof Date)) return null
  try {
    const publicJwk = JSON.parse(publicKey) as JWK
    return { kid: id, alg, publicJwk, sealedPrivateKey: privateKey, supersedes, createdAt, activatesAt, expiresAt }
  } catch {
    return null
  }
}

/**
 * When a key's public half may leave the JWKS: every token it signed has expired by then.
 *
 * @example
 * const published = publishedUntil(key, policy) > clock.now().getTime()
 */
export function publishedUntil(key: Pick<SigningKey, 'expiresAt'>, policy: Pick<SigningKeyPolicy, 'tokenLifetime'>): number {
  return key.expiresAt.getTime() + (policy.tokenLifetime + PUBLICATION_MARGIN_SECONDS) * 1000
}

/**
 * The algorithm's current key: the newest one that no other key supersedes
 * (a chain has one such tip; after a deleted link the newest tip wins).
 *
 * @example
 * const current = tipOf(ring.keys, 'RS256')
 */
export function tipOf(keys: readonly SigningKey[], alg: SigningAlgorithm): SigningKey | undefined {
  const superseded = new Set(keys.map((key) => key.supersedes))
  return keys
    .filter((key) => key.alg === alg && !superseded.has(key.kid))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.kid < b.kid ? 1 : -1))[0]
}

/**
 * How long before a key's period ends its successor is made and published.
 *
 * @example
 * prepublishWindow(policy) // 86_400_000 with the default 30-day interval
 */
export function prepublishWindow(policy: Pick<SigningKeyPolicy, 'rotationInterval'>): number {
  return Math.min(PREPUBLISH_SECONDS, policy.rotationInterval / 4) * 1000
}

/**
 * Keys of `alg` inside their signing period at `now`, the one activated last first.
 *
 * @example
 * const [signer] = activeKeys(ring.keys, 'RS256', clock.now().getTime())
 */
export function activeKeys(keys: readonly SigningKey[], alg: SigningAlgorithm, now: number): SigningKey[] {
  return keys
    .filter((key) => key.alg === alg && key.activatesAt.getTime() <= now && now < key.expiresAt.getTime())
    .sort(
      (a, b) =>
        b.activatesAt.getTime() - a.activatesAt.getTime() || b.createdAt.getTime() - a.createdAt.getTime() || (a.kid < b.kid ? 1 : -1),
    )
}

async function readRing(ctx: KeyContext, policy: SigningKeyPolicy): Promise<KeyRing> {
  const { db, clock, logger } = ctx.auth
  const rows = await db.findMany({ model: MODEL })
  const keys = rows.map(parseRow).filter((key): key is SigningKey => key !== null)
  const now = clock.now().getTime()
  const tips = new Set(signingAlgorithmsInUse(keys).map((alg) => tipOf(keys, alg)?.kid))
  const stale = keys.filter((key) => publishedUntil(key, policy) <= now && !tips.has(key.kid))
  if (stale.length > 0) {
    try {
      // Idempotent: processes pruning together delete the same rows.
      await db.deleteMany({ model: MODEL, where: { field: 'id', operator: 'in', value: stale.map((key) => key.kid) } })
    } catch (error) {
      logger.warn('signing keys: could not delete retired keys', { error: error instanceof Error ? error.message : String(error) })
    }
  }
  const staleIds = new Set(stale.map((key) => key.kid))
  return { loadedAt: now, keys: keys.filter((key) => !staleIds.has(key.kid)) }
}

function signingAlgorithmsInUse(keys: readonly SigningKey[]): SigningAlgorithm[] {
  return [...new Set(keys.map((key) => key.alg))]
}

/**
 * The stored keys, read again when the cached copy is older than the TTL.
 * Concurrent routine reads share one query; a `fresh` read (after a write, or
 * before deciding to rotate) always queries, so it never answers rows read
 * before that write.
 */
async function loadRing(ctx: KeyContext, policy: SigningKeyPolicy, fresh = false): Promise<KeyRing> {
  const state = stateOf(ctx.auth)
  const now = ctx.auth.clock.now().getTime()
  const cached = state.ring
  // A clock moved backwards also makes the copy suspect.
  if (!fresh && cached && now >= cached.loadedAt && now - cached.loadedAt < KEY_CACHE_TTL_MS) return cached
  if (!fresh && state.loading) return state.loading
  const loading = (async () => {
    const loaded = await readRing(ctx, policy)
    state.ring = loaded
    const live = new Set(loaded.keys.map((key) => key.kid))
    for (const kid of state.privateKeys.keys()) if (!live.has(kid)) state.privateKeys.delete(kid)
    return loaded
  })()
  if (!fresh) {
    state.loading = loading
    const clear = () => {
      if (state.loading === loading) state.loading = undefined
    }
    loading.then(clear, clear)
  }
  return loading
}

/** Makes a key pair for `alg` and inserts it as the successor of `predecessor`; losing the insert race is fine. */
async function createSuccessor(
  ctx: KeyContext,
  policy: SigningKeyPolicy,
  alg: SigningAlgorithm,
  predecessor: SigningKey | undefined,
  activatesAt: Date,
): Promise<void> {
  const { db, clock, secrets } = ctx.auth
  const pair = await generateKeyPair(alg, keyPairOptions(alg))
  const publicParameters = await exportJWK(pair.publicKey)
  const kid = await calculateJwkThumbprint(publicParameters, 'sha256')
  const publicJwk: JWK = { ...publicParameters, kid, alg, use: 'sig' }
  const privateJwk: JWK = { ...(await exportJWK(pair.privateKey)), kid, alg }
  const now = clock.now()
  try {
    await db.create({
      model: MODEL,
      data: {
        id: kid,
        alg,
        publicKey: JSON.stringify(publicJwk),
        privateKey: await encryptPrivateKey(secrets, kid, JSON.stringify(privateJwk)),
        supersedes: predecessor ? predecessor.kid : `genesis:${alg}`,
        createdAt: now,
        activatesAt,
        expiresAt: new Date(activatesAt.getTime() + policy.rotationInterval * 1000),
      },
    })
  } catch (error) {
    // Another process made this successor first: the caller re-reads and uses theirs.
    if (!isUniqueViolation(error)) throw error
  }
}

/** One rotation per algorithm at a time within this instance; concurrent callers share it. */
function rotate(
  ctx: KeyContext,
  policy: SigningKeyPolicy,
  alg: SigningAlgorithm,
  predecessor: SigningKey | undefined,
  activatesAt: Date,
): Promise<void> {
  const state = stateOf(ctx.auth)
  let running = state.rotations.get(alg)
  if (!running) {
    running = createSuccessor(ctx, policy, alg, predecessor, activatesAt)
      .then(() => loadRing(ctx, policy, true))
      .then(() => undefined)
      .finally(() => state.rotations.delete(alg))
    state.rotations.set(alg, running)
  }
  return running
}

/** The decrypted private key of `key`, or null when no configured secret opens it. */
function privateKeyOf(ctx: KeyContext, key: SigningKey): Promise<CryptoKey | null> {
  const state = stateOf(ctx.auth)
  let found = state.privateKeys.get(key.kid)
  if (!found) {
    found = openPrivateKey(ctx, key)
    state.privateKeys.set(key.kid, found)
  }
  return found
}

async function openPrivateKey(ctx: KeyContext, key: SigningKey): Promise<CryptoKey | null> {
  const { secrets, db, logger } = ctx.auth
  const opened = await decryptPrivateKey(secrets, key.kid, key.sealedPrivateKey)
  if (!opened.ok) {
    logger.error('signing keys: a key cannot be decrypted with any configured secret; a new key replaces it', { kid: key.kid })
    return null
  }
  if (opened.staleSecret) {
    try {
      // Sealed under an older secret: re-seal under the newest so that secret can be retired.
      await db.update({
        model: MODEL,
        where: { field: 'id', value: key.kid },
        update: { privateKey: await encryptPrivateKey(secrets, key.kid, opened.plaintext) },
      })
    } catch (error) {
      logger.warn('signing keys: could not re-encrypt a key under the newest secret', { error: error instanceof Error ? error.message : String(error) })
    }
  }
  try {
    return (await importJWK(JSON.parse(opened.plaintext) as JWK, key.alg)) as CryptoKey
  } catch {
    logger.error('signing keys: a stored key is not a usable private JWK; a new key replaces it', { kid: key.kid })
    return null
  }
}

export interface CurrentKey {
  readonly kid: string
  readonly alg: SigningAlgorithm
  readonly privateKey: CryptoKey
}

/** The first active key of `alg` this instance can decrypt. */
async function usableKey(ctx: KeyContext, keys: readonly SigningKey[], alg: SigningAlgorithm, now: number): Promise<CurrentKey | null> {
  for (const key of activeKeys(keys, alg, now)) {
    const privateKey = await privateKeyOf(ctx, key)
    if (privateKey) return { kid: key.kid, alg, privateKey }
  }
  return null
}

/**
 * The key to sign with for `alg`, making the first one, or the successor of
 * the current one when it is due (docs/plugins.md#signing-keys-shared-by-plugins).
 *
 * @example
 * const { kid, privateKey } = await currentSigningKey(ctx, signingKeyPolicy(ctx.auth), 'RS256')
 */
export async function currentSigningKey(ctx: KeyContext, policy: SigningKeyPolicy, alg: SigningAlgorithm): Promise<CurrentKey> {
  let ring = await loadRing(ctx, policy)
  let fresh = false
  for (let round = 0; round < MAX_ROTATION_ROUNDS; round++) {
    const now = ctx.auth.clock.now().getTime()
    const usable = await usableKey(ctx, ring.keys, alg, now)
    const tip = tipOf(ring.keys, alg)
    const successorDue = !tip || tip.expiresAt.getTime() - now <= prepublishWindow(policy)
    if (usable && !successorDue) return usable
    if (!fresh) {
      // Another process may have made the key already: look before paying for a key pair.
      ring = await loadRing(ctx, policy, true)
      fresh = true
      continue
    }
    if (usable && tip) {
      // Pre-publication: the successor takes over when the current period ends. A failure here
      // must not fail the sign, which still has a good key; the next call tries again.
      try {
        await rotate(ctx, policy, alg, tip, new Date(Math.max(tip.expiresAt.getTime(), now)))
      } catch (error) {
        ctx.auth.logger.warn('signing keys: could not make the next key', { error: error instanceof Error ? error.message : String(error) })
        return usable
      }
    } else {
      // None, expired, or none this instance can decrypt: a key that signs at once.
      await rotate(ctx, policy, alg, tip, new Date(now))
    }
    ring = await loadRing(ctx, policy)
  }
  throw new Error(`signing keys: no usable ${alg} key after ${MAX_ROTATION_ROUNDS} attempts`)
}

/**
 * Makes sure every configured algorithm has a current key (and its successor
 * when due), so the JWKS lists a key before its first token.
 *
 * @example
 * await ensureSigningKeys({ auth: await auth.$context }, signingKeyPolicy(await auth.$context)) // e.g. at deploy time, to pay for RSA generation early
 */
export async function ensureSigningKeys(ctx: KeyContext, policy: SigningKeyPolicy): Promise<void> {
  for (const alg of policy.algorithms) await currentSigningKey(ctx, policy, alg)
}

/**
 * Every key whose tokens may still be live, after making sure the current ones exist.
 *
 * @example
 * const keys = await publishedKeys(ctx, policy) // current keys plus recently retired ones
 */
export async function publishedKeys(ctx: KeyContext, policy: SigningKeyPolicy): Promise<readonly SigningKey[]> {
  await ensureSigningKeys(ctx, policy)
  const ring = await loadRing(ctx, policy)
  const now = ctx.auth.clock.now().getTime()
  return ring.keys
    .filter((key) => publishedUntil(key, policy) > now)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.kid < b.kid ? -1 : 1))
}
