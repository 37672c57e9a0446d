/**
 * Key life cycle: rotation by age with old public keys kept until their
 * tokens expire, processes racing to make the first (or next) key, a key the
 * secret no longer opens, and secret rotation.
 */
import { decodeProtectedHeader, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { createSecrets } from '../../core/src/crypto/keys.js'
import { SECRET } from '../../core/test/helpers.js'
import { decryptPrivateKey } from '../../core/src/signing-keys/encryption.js'
import { signJwt } from '../src/keys/index.js'
import { DEFAULT_ROTATION_INTERVAL } from '../src/options.js'
import { fetchJwks, keysAuth, relyingPartyKeys, sibling, storedKeys, type KeysAuth } from './keys-fixtures.js'

const DAY = 86_400_000

async function sign(auth: KeysAuth, lifetime = auth.resolved.accessTokenExpiresIn): Promise<string> {
  const exp = Math.floor(auth.clock.now().getTime() / 1000) + lifetime
  return signJwt(await auth.ctx(), auth.resolved, { sub: 'user-1', aud: 'client-1', exp })
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid
const publishedKids = async (auth: KeysAuth) => (await fetchJwks(auth)).body.keys.map((key) => key.kid)

async function verifies(auth: KeysAuth, token: string, at = auth.clock.now()): Promise<boolean> {
  try {
    await jwtVerify(token, await relyingPartyKeys(auth), { issuer: 'http://localhost:3000/api/auth', currentDate: at })
    return true
  } catch {
    return false
  }
}

describe('rotation', () => {
  it('defaults to thirty days', () => {
    expect(DEFAULT_ROTATION_INTERVAL).toBe(30 * 86_400)
    expect(keysAuth().resolved.signing.rotationInterval).toBe(30 * 86_400)
  })

  it('publishes the successor a day ahead, switches at the end of the period, and drops the old key once its tokens expired', async () => {
    const auth = keysAuth()
    const start = auth.clock.now().getTime()
    const oldKid = kidOf(await sign(auth))
    auth.clock.set(new Date(start + 29 * DAY - 1000))
    expect(kidOf(await sign(auth))).toBe(oldKid)
    expect(await publishedKids(auth)).toEqual([oldKid])

    // Inside the last day: the next key is made and published, the old one still signs.
    auth.clock.set(new Date(start + 29 * DAY + 1000))
    expect(kidOf(await sign(auth))).toBe(oldKid)
    const rows = await storedKeys(auth)
    expect(rows).toHaveLength(2)
    const newKid = rows[1]?.id
    expect(rows.map((row) => [row.id, row.supersedes])).toEqual([
      [oldKid, 'genesis:RS256'],
      [newKid, oldKid],
    ])
    expect(rows.map((row) => [row.activatesAt.getTime(), row.expiresAt.getTime()])).toEqual([
      [start, start + 30 * DAY],
      [start + 30 * DAY, start + 60 * DAY],
    ])
    expect(await publishedKids(auth)).toEqual([newKid, oldKid])

    auth.clock.set(new Date(start + 30 * DAY - 1000))
    const lastOld = await sign(auth)
    expect(kidOf(lastOld)).toBe(oldKid)
    auth.clock.set(new Date(start + 30 * DAY))
    const firstNew = await sign(auth)
    expect(kidOf(firstNew)).toBe(newKid)
    expect(await storedKeys(auth)).toHaveLength(2)

    // The last token of the old key verifies for as long as it lives.
    auth.clock.set(new Date(start + 30 * DAY + 3590 * 1000))
    expect(await publishedKids(auth)).toEqual([newKid, oldKid])
    expect(await verifies(auth, lastOld)).toBe(true)

    // One token lifetime plus the five-minute margin after the old key stopped signing, it is gone.
    auth.clock.set(new Date(start + 30 * DAY + (3600 + 300) * 1000))
    expect(await publishedKids(auth)).toEqual([newKid])
    expect((await storedKeys(auth)).map((row) => row.id)).toEqual([newKid])
    expect(await verifies(auth, lastOld, new Date(start + 30 * DAY))).toBe(false)
    expect(await verifies(auth, firstNew, new Date(start + 30 * DAY + 1000))).toBe(true)
  })

  it('after an idle spell past the period, the successor signs at once', async () => {
    const auth = keysAuth({ signing: { rotationInterval: 3600 } })
    const oldKid = kidOf(await sign(auth))
    auth.clock.advance(5 * 3600 * 1000)
    const token = await sign(auth)
    expect(kidOf(token)).not.toBe(oldKid)
    const [row] = await storedKeys(auth)
    expect(row?.activatesAt.getTime()).toBe(auth.clock.now().getTime())
    expect(await verifies(auth, token)).toBe(true)
  })

  it('processes that find the successor due together make one', async () => {
    const a = keysAuth({ signing: { rotationInterval: 3600 } })
    const b = await sibling(a, { signing: { rotationInterval: 3600 } })
    const firstKid = kidOf(await sign(a))
    expect(kidOf(await sign(b))).toBe(firstKid)
    // Inside the pre-publication window (a quarter of the interval): both want the successor.
    for (const auth of [a, b]) auth.clock.advance(3000 * 1000)
    await Promise.all([sign(a), sign(b), fetchJwks(a), fetchJwks(b)])
    expect(await storedKeys(a)).toHaveLength(2)
    for (const auth of [a, b]) auth.clock.advance(600 * 1000)
    const [fromA, fromB] = await Promise.all([sign(a), sign(b)])
    expect(kidOf(fromA)).toBe(kidOf(fromB))
    expect(kidOf(fromA)).not.toBe(firstKid)
    expect(await storedKeys(a)).toHaveLength(2)
    for (const token of [fromA, fromB]) {
      expect(await verifies(a, token)).toBe(true)
      expect(await verifies(b, token)).toBe(true)
    }
  })

  it('a process with a clock behind keeps signing with the old key until its own clock reaches the switch', async () => {
    const a = keysAuth({ signing: { rotationInterval: 3600 } })
    const b = await sibling(a, { signing: { rotationInterval: 3600 } })
    const firstKid = kidOf(await sign(a))
    a.clock.advance(3000 * 1000)
    await sign(a)
    const successor = (await storedKeys(a))[1]?.id
    a.clock.advance(600 * 1000)
    expect(kidOf(await sign(a))).toBe(successor)
    // b's clock is ten seconds behind: its current key is still the old one, which is still published.
    b.clock.advance(3590 * 1000)
    const fromB = await sign(b)
    expect(kidOf(fromB)).toBe(firstKid)
    expect(await verifies(a, fromB)).toBe(true)
    b.clock.advance(10 * 1000)
    expect(kidOf(await sign(b))).toBe(successor)
    expect(await storedKeys(a)).toHaveLength(2)
  })

  it('a key another process made early is picked up once the cached keys are a minute old', async () => {
    const a = keysAuth()
    const b = await sibling(a)
    const start = a.clock.now().getTime()
    const firstKid = kidOf(await sign(b))
    // Another process replaced the key early (as it does with a key it cannot decrypt): a successor row appears.
    const elsewhere = keysAuth()
    await sign(elsewhere)
    const [made] = await storedKeys(elsewhere)
    await (await a.adapter()).create({ model: 'jwks', data: { ...made, supersedes: firstKid, activatesAt: new Date(start + 10_000) } })
    b.clock.advance(30_000)
    expect(kidOf(await sign(b))).toBe(firstKid)
    b.clock.advance(31_000)
    expect(kidOf(await sign(b))).toBe(made?.id)
  })
})

describe('racing first use', () => {
  it('twenty parallel first signs in one instance make one key', async () => {
    const auth = keysAuth()
    const tokens = await Promise.all(Array.from({ length: 20 }, () => sign(auth)))
    expect(new Set(tokens.map(kidOf)).size).toBe(1)
    expect(await storedKeys(auth)).toHaveLength(1)
    for (const token of tokens) expect(await verifies(auth, token)).toBe(true)
  })

  it('twenty processes starting together on one database all sign tokens the published JWKS verifies, with one key', async () => {
    const first = keysAuth({ signing: { additionalAlgorithms: ['ES256'] } })
    const processes = [first, ...(await Promise.all(Array.from({ length: 19 }, () => sibling(first, { signing: { additionalAlgorithms: ['ES256'] } }))))]
    const tokens = await Promise.all(processes.map((auth) => sign(auth)))
    const rows = await storedKeys(first)
    // The unique `supersedes` column lets one insert of the genesis key win; the others re-read it.
    expect(rows.filter((row) => row.alg === 'RS256')).toHaveLength(1)
    expect(new Set(tokens.map(kidOf))).toEqual(new Set([rows.find((row) => row.alg === 'RS256')?.id]))
    for (const auth of [first, processes[7] as KeysAuth, processes[19] as KeysAuth]) {
      for (const token of tokens) expect(await verifies(auth, token)).toBe(true)
    }
  })
})

describe('keys the secret cannot open', () => {
  it('replace a tampered key with a new one and keep publishing the old public half', async () => {
    const auth = keysAuth()
    const first = await sign(auth)
    const [row] = await storedKeys(auth)
    const [version, iv, body] = (row?.privateKey as string).split('.') as [string, string, string]
    const adapter = await auth.adapter()
    await adapter.update({
      model: 'jwks',
      where: { field: 'id', value: row?.id as string },
      update: { privateKey: `${version}.${iv}.${body[0] === 'A' ? 'B' : 'A'}${body.slice(1)}` },
    })
    // A fresh process (no decrypted key cached) cannot open it.
    const restarted = await sibling(auth)
    const second = await sign(restarted)
    expect(kidOf(second)).not.toBe(kidOf(first))
    expect(await publishedKids(restarted)).toEqual(expect.arrayContaining([kidOf(first), kidOf(second)]))
    expect(await verifies(restarted, first)).toBe(true)
    expect(await verifies(restarted, second)).toBe(true)
  })

  it('after a secret rotation, open keys sealed under the old secret and re-seal them under the new one', async () => {
    const NEW_SECRET = 'rotated-secret-0123456789-abcdefghijklmn'
    const before = keysAuth()
    const kid = kidOf(await sign(before))
    const after = await sibling(before, {}, { secret: [NEW_SECRET, SECRET] })
    const token = await sign(after)
    expect(kidOf(token)).toBe(kid)
    const [row] = await storedKeys(after)
    expect(await decryptPrivateKey(createSecrets(NEW_SECRET), kid as string, row?.privateKey as string)).toMatchObject({ ok: true, staleSecret: false })
    expect(await decryptPrivateKey(createSecrets(SECRET), kid as string, row?.privateKey as string)).toEqual({ ok: false })
    // Only the new secret from now on: the key still opens.
    const onlyNew = await sibling(before, {}, { secret: NEW_SECRET })
    expect(kidOf(await sign(onlyNew))).toBe(kid)
  })
})
