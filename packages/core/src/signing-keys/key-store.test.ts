import { describe, expect, it } from 'vitest'
import { activeKeys, prepublishWindow, publishedUntil, tipOf, type SigningKey } from './key-store.js'

function key(kid: string, supersedes: string, createdAt: number, alg: SigningKey['alg'] = 'RS256', period: [number, number] = [createdAt, createdAt + 1000]): SigningKey {
  return {
    kid,
    alg,
    publicJwk: {},
    sealedPrivateKey: '',
    supersedes,
    createdAt: new Date(createdAt),
    activatesAt: new Date(period[0]),
    expiresAt: new Date(period[1]),
  }
}

describe('tipOf', () => {
  it('answers the key no other key supersedes, per algorithm', () => {
    const keys = [key('a', 'genesis:RS256', 1), key('b', 'a', 2), key('c', 'b', 3), key('e', 'genesis:ES256', 5, 'ES256')]
    expect(tipOf(keys, 'RS256')?.kid).toBe('c')
    expect(tipOf(keys, 'ES256')?.kid).toBe('e')
    expect(tipOf(keys, 'EdDSA')).toBeUndefined()
  })

  it('prefers the newest tip when a deleted link left two', () => {
    const keys = [key('old', 'genesis:RS256', 1), key('new', 'gone', 9)]
    expect(tipOf(keys, 'RS256')?.kid).toBe('new')
  })
})

describe('activeKeys', () => {
  it('lists keys inside their period, the one activated last first; a pre-published successor waits', () => {
    const current = key('current', 'genesis:RS256', 0, 'RS256', [0, 1000])
    const next = key('next', 'current', 900, 'RS256', [1000, 2000])
    const early = key('early', 'x', 500, 'RS256', [500, 1500])
    expect(activeKeys([current, next], 'RS256', 950).map((k) => k.kid)).toEqual(['current'])
    expect(activeKeys([current, next], 'RS256', 1000).map((k) => k.kid)).toEqual(['next'])
    expect(activeKeys([current, next, early], 'RS256', 600).map((k) => k.kid)).toEqual(['early', 'current'])
    expect(activeKeys([current, next], 'ES256', 950)).toEqual([])
    expect(activeKeys([current, next], 'RS256', 2000)).toEqual([])
  })
})

describe('windows', () => {
  it('publishes until the end of signing plus the token lifetime plus five minutes', () => {
    expect(publishedUntil({ expiresAt: new Date(0) }, { tokenLifetime: 3600 })).toBe((3600 + 300) * 1000)
  })

  it('pre-publishes a day ahead, or a quarter of a shorter interval', () => {
    expect(prepublishWindow({ rotationInterval: 30 * 86_400 })).toBe(86_400_000)
    expect(prepublishWindow({ rotationInterval: 3600 })).toBe(900_000)
  })
})
