/**
 * The one-time code store (docs/plugins.md#one-time-codes): hashed at rest,
 * bound to purpose and destination, three wrong tries then void, a wrong
 * try counted even though the caller's request fails, one winner among
 * parallel redemptions, the caller's work rolled back with the code when it
 * throws. On memory, SQLite, and PostgreSQL and MariaDB when configured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSecrets } from '../src/crypto/keys.js'
import { runMigrations } from '../src/index.js'
import { discardCode, issueCode, limitSends, redeemCode, type CodeTarget } from '../src/verification/one-time-code.js'
import { backendDialects, createTestBackend, type TestBackend } from './kysely-backends.js'
import { SECRET, testAuth } from './helpers.js'

const target: CodeTarget = { purpose: 'test:sign-in', destination: 'ada@example.com' }
const nothing = async () => 'done'

type TestAuth = ReturnType<typeof testAuth>

async function context(auth: TestAuth) {
  return auth.$context
}

function wrong(code: string): string {
  return code === '000000' ? '111111' : '000000'
}

function suite(name: string, make: () => Promise<{ auth: TestAuth; close?: () => Promise<void> }>) {
  describe(`one-time codes on ${name}`, () => {
    let auth: TestAuth
    let close: (() => Promise<void>) | undefined
    beforeAll(async () => {
      ;({ auth, close } = await make())
    })
    afterAll(async () => {
      await close?.()
    })

    it('stores only a keyed hash, under the purpose and a hash of the destination', async () => {
      const ctx = await context(auth)
      const destination = `stored-${name}@example.com`
      const code = await issueCode(ctx, { ...target, destination })
      expect(code).toMatch(/^\d{6}$/)
      const rows = await ctx.db.findMany<{ identifier: string; value: string }>({ model: 'verification' })
      const row = rows.find((entry) => entry.identifier.startsWith('otc:test:sign-in:') && entry.value.includes('"attempts":0') && !entry.identifier.includes('@'))
      expect(row).toBeDefined()
      expect(JSON.stringify(rows)).not.toContain(destination)
      expect(row!.value).not.toContain(code)
    })

    it('a right code is used once; a code of another purpose or destination never passes', async () => {
      const ctx = await context(auth)
      const mine = { ...target, destination: `once-${name}@example.com` }
      const code = await issueCode(ctx, mine)
      expect(await redeemCode(ctx, { ...mine, purpose: 'test:reset' }, code, {}, nothing)).toEqual({ ok: false, reason: 'invalid' })
      expect(await redeemCode(ctx, { ...mine, destination: 'eve@example.com' }, code, {}, nothing)).toEqual({ ok: false, reason: 'invalid' })
      expect(await redeemCode(ctx, mine, code, {}, nothing)).toEqual({ ok: true, value: 'done' })
      expect(await redeemCode(ctx, mine, code, {}, nothing)).toEqual({ ok: false, reason: 'invalid' })
    })

    it('three wrong tries void the code, the right one included; each try is counted though the caller fails', async () => {
      const ctx = await context(auth)
      const mine = { ...target, destination: `guess-${name}@example.com` }
      const code = await issueCode(ctx, mine)
      expect((await redeemCode(ctx, mine, wrong(code), {}, nothing)).ok).toBe(false)
      expect((await redeemCode(ctx, mine, 'not digits', {}, nothing)).ok).toBe(false)
      expect(await redeemCode(ctx, mine, wrong(code), {}, nothing)).toEqual({ ok: false, reason: 'too-many-attempts' })
      expect(await redeemCode(ctx, mine, code, {}, nothing)).toEqual({ ok: false, reason: 'invalid' })
    })

    it('an expired code is refused and deleted', async () => {
      const ctx = await context(auth)
      const mine = { ...target, destination: `late-${name}@example.com` }
      const code = await issueCode(ctx, mine, { expiresIn: 60 })
      auth.clock.advance(60_000)
      expect(await redeemCode(ctx, mine, code, {}, nothing)).toEqual({ ok: false, reason: 'expired' })
      expect(await redeemCode(ctx, mine, code, {}, nothing)).toEqual({ ok: false, reason: 'invalid' })
    })

    it('a new code replaces the last; a discarded one is gone', async () => {
      const ctx = await context(auth)
      const mine = { ...target, destination: `again-${name}@example.com` }
      const first = await issueCode(ctx, mine)
      const second = await issueCode(ctx, mine)
      if (first !== second) expect((await redeemCode(ctx, mine, first, {}, nothing)).ok).toBe(false)
      expect((await redeemCode(ctx, mine, second, {}, nothing)).ok).toBe(true)
      const third = await issueCode(ctx, mine)
      await discardCode(ctx, mine)
      expect(await redeemCode(ctx, mine, third, {}, nothing)).toEqual({ ok: false, reason: 'invalid' })
    })

    it('when the work after a right code throws, the code stays usable', async () => {
      const ctx = await context(auth)
      const mine = { ...target, destination: `rollback-${name}@example.com` }
      const code = await issueCode(ctx, mine)
      await expect(redeemCode(ctx, mine, code, {}, async () => Promise.reject(new Error('user not created')))).rejects.toThrow('user not created')
      expect((await redeemCode(ctx, mine, code, {}, nothing)).ok).toBe(true)
    })

    it('keep: a check leaves a right code usable, and still counts a wrong one', async () => {
      const ctx = await context(auth)
      const mine = { ...target, destination: `check-${name}@example.com` }
      const code = await issueCode(ctx, mine)
      expect((await redeemCode(ctx, mine, code, { keep: true }, nothing)).ok).toBe(true)
      expect((await redeemCode(ctx, mine, wrong(code), { keep: true }, nothing)).ok).toBe(false)
      expect((await redeemCode(ctx, mine, wrong(code), { keep: true }, nothing)).ok).toBe(false)
      expect((await redeemCode(ctx, mine, code, {}, nothing)).ok).toBe(true)
    })

    it('twenty parallel redemptions of one code: exactly one wins', async () => {
      const ctx = await context(auth)
      const mine = { ...target, destination: `race-${name}@example.com` }
      const code = await issueCode(ctx, mine)
      let ran = 0
      const results = await Promise.all(Array.from({ length: 20 }, () => redeemCode(ctx, mine, code, {}, async () => (ran += 1))))
      expect(results.filter((result) => result.ok)).toHaveLength(1)
      expect(ran).toBe(1)
    })

    it('twenty parallel wrong tries spend the three tries and no more', async () => {
      const ctx = await context(auth)
      const mine = { ...target, destination: `flood-${name}@example.com` }
      const code = await issueCode(ctx, mine)
      const results = await Promise.all(Array.from({ length: 20 }, () => redeemCode(ctx, mine, wrong(code), {}, nothing)))
      expect(results.filter((result) => !result.ok && result.reason === 'too-many-attempts')).toHaveLength(1)
      expect(await redeemCode(ctx, mine, code, {}, nothing)).toEqual({ ok: false, reason: 'invalid' })
    })
  })
}

suite('memory', async () => ({ auth: testAuth() }))

for (const { dialect, enabled } of backendDialects) {
  if (!enabled) continue
  suite(dialect, async () => {
    const backend: TestBackend = await createTestBackend(dialect)
    const auth = testAuth({ database: backend.factory })
    expect((await runMigrations(auth)).applied).toBe(true)
    return {
      auth,
      close: async () => {
        await auth.close()
        await backend.drop()
      },
    }
  })
}

describe('rotation and send limits', () => {
  it('a code issued under the old secret passes after the secret rotated', async () => {
    const ctx = await testAuth().$context
    const code = await issueCode(ctx, target)
    const rotated = { ...ctx, secrets: createSecrets(['a-brand-new-secret-0123456789-abcdefgh', SECRET]) }
    expect((await redeemCode(rotated, target, wrong(code), {}, nothing)).ok).toBe(false)
    expect((await redeemCode(rotated, target, code, {}, nothing)).ok).toBe(true)
  })

  it('a destination gets 3 codes a minute and 10 an hour, whoever asks; another destination is not affected', async () => {
    const auth = testAuth()
    const ctx = await auth.$context
    const statuses: string[] = []
    for (let minute = 0; minute < 4; minute += 1) {
      for (let index = 0; index < 4; index += 1) {
        statuses.push(await limitSends(ctx, 'email', 'ada@example.com').then(() => 'sent', (error: { status: number }) => String(error.status)))
      }
      auth.clock.advance(60_000)
    }
    expect(statuses).toEqual(['sent', 'sent', 'sent', '429', 'sent', 'sent', 'sent', '429', 'sent', 'sent', 'sent', '429', 'sent', '429', '429', '429'])
    await expect(limitSends(ctx, 'email', 'grace@example.com')).resolves.toBeUndefined()
  })
})
