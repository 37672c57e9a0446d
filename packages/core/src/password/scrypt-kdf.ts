/**
 * @module
 * Runs scrypt without blocking the event loop. Each hash costs ~100 ms of CPU
 * and 32 MiB; run on the main thread, a handful of concurrent sign-ins would
 * stall every other request on the server (a denial of service by login form).
 *
 * - `node`: `node:crypto`'s async `scrypt`, which OpenSSL runs in libuv's
 *   thread pool, off the main thread, at most one per CPU core at a time
 *   (scrypt-limit.ts: that bounds the 32 MiB each one holds). Used wherever
 *   `node:crypto` exists (Node, Bun, Deno, workers with Node compatibility).
 * - `noble`: `@noble/hashes`' `scryptAsync`, pure JavaScript for runtimes
 *   without `node:crypto`. It runs on the main thread but yields every 10 ms,
 *   so other requests still get turns, only more slowly.
 *
 * Both compute RFC 7914 scrypt, so a hash made by one verifies with the other.
 * `node:crypto` is loaded with a dynamic import, once, so that merely importing
 * this package never fails on a runtime that lacks it; `@noble/hashes`' scrypt
 * too, so that Node never loads the fallback it does not use.
 */

import type { ScryptParams } from './scrypt-format.js'
import { concurrencyLimit, type ConcurrencyLimit } from './scrypt-limit.js'

/** Which scrypt implementation runs: see the module comment. */
export type ScryptBackend = 'node' | 'noble'

type NodeScrypt = typeof import('node:crypto').scrypt

/** node:crypto's scrypt and the limit on derivations running at once (scrypt-limit.ts): one per core. */
interface NodeBackend {
  readonly scrypt: NodeScrypt
  readonly limit: ConcurrencyLimit
}

let nodeScrypt: Promise<NodeBackend | undefined> | undefined

/**
 * The specifier sits in a variable so that bundlers targeting browsers or edge
 * runtimes do not try to resolve `node:crypto` at build time; at run time a
 * missing module is simply "no node backend".
 */
const NODE_CRYPTO = 'node:crypto'
const NODE_OS = 'node:os'

function loadNodeScrypt(): Promise<NodeBackend | undefined> {
  nodeScrypt ??= (async () => {
    try {
      const module: typeof import('node:crypto') = await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_CRYPTO)
      // Checked anyway: a runtime's partial `node:crypto` polyfill may lack scrypt.
      if (typeof module.scrypt !== 'function') return undefined
      return { scrypt: module.scrypt, limit: concurrencyLimit(await cores()) }
    } catch {
      return undefined
    }
  })()
  return nodeScrypt
}

/** CPU cores this process may use; 4 (libuv's default pool size) where node:os cannot say. */
async function cores(): Promise<number> {
  try {
    const os: typeof import('node:os') = await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_OS)
    return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length || 4
  } catch {
    return 4
  }
}

/**
 * The backend used when none is forced: `node` if `node:crypto` loads, else `noble`.
 *
 * @example
 * console.log(`hashing passwords with ${await detectScryptBackend()}`)
 */
export async function detectScryptBackend(): Promise<ScryptBackend> {
  return (await loadNodeScrypt()) === undefined ? 'noble' : 'node'
}

/**
 * Memory limit handed to either implementation: exactly what scrypt needs
 * (128·r·(N + p + 2) bytes) plus 1 MiB. Node's default `maxmem` is 32 MiB,
 * which our defaults (128·N·r = 32 MiB plus the B array) just exceed.
 */
function maxmem(params: ScryptParams): number {
  return 128 * params.r * (params.N + params.p + 2) + 2 ** 20
}

/**
 * Derives `params.keyLength` bytes from `password` and `salt` with scrypt.
 * Callers validate `params` first (see `withinLimits`): this function trusts them.
 * `backend` forces an implementation; tests use it to check that both agree.
 *
 * @example
 * const key = await deriveScryptKey(utf8ToBytes('hunter2'), salt, DEFAULT_SCRYPT_PARAMS)
 */
export async function deriveScryptKey(
  password: Uint8Array,
  salt: Uint8Array,
  params: ScryptParams,
  backend?: ScryptBackend,
): Promise<Uint8Array> {
  const node = backend === 'noble' ? undefined : await loadNodeScrypt()
  if (node === undefined) {
    if (backend === 'node') throw new Error('The node scrypt backend is not available on this runtime')
    const { scryptAsync } = await import('@noble/hashes/scrypt.js')
    return scryptAsync(password, salt, {
      N: params.N,
      r: params.r,
      p: params.p,
      dkLen: params.keyLength,
      maxmem: maxmem(params),
    })
  }
  const options = { N: params.N, r: params.r, p: params.p, maxmem: maxmem(params) }
  return node.limit.run(
    () =>
      new Promise<Uint8Array>((resolve, reject) => {
        node.scrypt(password, salt, params.keyLength, options, (error, key) => {
          if (error) reject(error)
          else resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength))
        })
      }),
  )
}
