import { describe, expect, it } from 'vitest'
import {
  ALPHANUMERIC,
  cryptoRandom,
  entropyBits,
  generateToken,
  LOWERCASE_ALPHANUMERIC,
  MIN_TOKEN_BITS,
  type Random,
  seededRandom,
} from './random.js'

/** Chi-squared statistic of observed counts against a uniform expectation. */
function chiSquared(counts: ReadonlyMap<string, number>, categories: number, total: number): number {
  const expected = total / categories
  let sum = 0
  for (const count of counts.values()) sum += (count - expected) ** 2 / expected
  // Categories never drawn still contribute `expected` each.
  sum += (categories - counts.size) * expected
  return sum
}

function countCharacters(text: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1)
  return counts
}

describe.each([
  ['cryptoRandom', cryptoRandom],
  ['seededRandom', seededRandom('distribution')],
] as const)('%s', (_name, random: Random) => {
  it('draws every alphanumeric character about equally often over 100k draws', () => {
    const total = 100_000
    const text = random.string(total)
    expect(text).toHaveLength(total)
    const counts = countCharacters(text)
    expect([...counts.keys()].sort().join('')).toBe([...ALPHANUMERIC].sort().join(''))
    // 61 degrees of freedom: the 99.999th percentile is about 121. A `byte % 62`
    // generator gives the first 8 characters 5/4 of their share and scores ~660.
    expect(chiSquared(counts, ALPHANUMERIC.length, total)).toBeLessThan(121)
    const expected = total / ALPHANUMERIC.length
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(expected * 0.85)
      expect(count).toBeLessThan(expected * 1.15)
    }
  })

  it('draws uniformly from a small custom alphabet', () => {
    const total = 30_000
    const counts = countCharacters(random.string(total, 'abc'))
    expect(counts.size).toBe(3)
    // 2 degrees of freedom: the 99.999th percentile is about 23.
    expect(chiSquared(counts, 3, total)).toBeLessThan(23)
  })

  it('returns bytes of the asked length with all byte values reachable', () => {
    expect(random.bytes(0)).toHaveLength(0)
    const bytes = random.bytes(70_000)
    expect(bytes).toHaveLength(70_000)
    expect(new Set(bytes).size).toBe(256)
  })

  it('rejects bad lengths and alphabets', () => {
    expect(() => random.string(-1)).toThrow(RangeError)
    expect(() => random.string(1.5)).toThrow(RangeError)
    expect(() => random.bytes(-1)).toThrow(RangeError)
    expect(() => random.string(4, 'a')).toThrow(/2 to 256/)
    expect(() => random.string(4, 'aab')).toThrow(/repeat/)
  })
})

describe('cryptoRandom', () => {
  it('does not repeat tokens', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => cryptoRandom.string(32)))
    expect(seen.size).toBe(1000)
  })
})

describe('seededRandom', () => {
  it('is deterministic per seed and differs between seeds', () => {
    expect(seededRandom(1).string(40)).toBe(seededRandom(1).string(40))
    expect(seededRandom('a').bytes(64)).toEqual(seededRandom('a').bytes(64))
    expect(seededRandom(1).string(40)).not.toBe(seededRandom(2).string(40))
  })

  it('advances its stream between calls', () => {
    const random = seededRandom('stream')
    expect(random.string(32)).not.toBe(random.string(32))
  })
})

describe('entropyBits', () => {
  it('is length times log2 of the alphabet size', () => {
    expect(entropyBits(32)).toBeCloseTo(32 * Math.log2(62), 10)
    expect(entropyBits(32)).toBeGreaterThan(190)
    expect(entropyBits(10, '0123456789')).toBeCloseTo(33.22, 2)
  })
})

describe('generateToken', () => {
  it('defaults to 32 alphanumeric characters (~190 bits)', () => {
    const token = generateToken(cryptoRandom)
    expect(token).toMatch(/^[a-zA-Z0-9]{32}$/)
  })

  it('is reproducible with a seeded source', () => {
    expect(generateToken(seededRandom('t'))).toBe(generateToken(seededRandom('t')))
  })

  it('accepts the documented token shapes (reset, delete-account, session)', () => {
    expect(generateToken(cryptoRandom, 24)).toMatch(/^[a-zA-Z0-9]{24}$/)
    expect(generateToken(cryptoRandom, 32, LOWERCASE_ALPHANUMERIC)).toMatch(/^[a-z0-9]{32}$/)
    expect(generateToken(cryptoRandom, 128)).toHaveLength(128)
  })

  it.each([
    [21, ALPHANUMERIC], // 125 bits
    [16, ALPHANUMERIC], // 95 bits
    [24, LOWERCASE_ALPHANUMERIC], // 124 bits
    [32, '0123456789'], // 106 bits
    [127, '01'], // 127 bits
  ])('refuses %i characters of a %s alphabet (below 128 bits)', (length, alphabet) => {
    expect(entropyBits(length, alphabet)).toBeLessThan(MIN_TOKEN_BITS)
    expect(() => generateToken(cryptoRandom, length, alphabet)).toThrow(/at least 128/)
  })

  it('accepts exactly 128 bits', () => {
    expect(generateToken(cryptoRandom, 128, '01')).toMatch(/^[01]{128}$/)
    expect(generateToken(cryptoRandom, 22)).toHaveLength(22) // 131 bits
  })
})
