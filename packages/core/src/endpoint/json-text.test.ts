import { describe, expect, it } from 'vitest'
import { toJsonText } from './json-text.js'

describe('toJsonText', () => {
  it('writes Dates as toISOString does, across the calendar and at its edges', () => {
    const instants = [0, -1, 1, 951_782_400_000, 1_709_164_800_000, 253_402_300_799_999, -62_135_596_800_000, Date.UTC(2026, 0, 2, 3, 4, 5, 6)]
    for (let day = 0; day < 800; day++) instants.push(Date.UTC(2023, 0, 1) + day * 86_400_000 + day * 1_234_567)
    // Both ends of the formatted range and just past them, every century turn (1900 and 2100 are not leap years, 2000 is).
    instants.push(-30_610_224_000_000, -30_610_224_000_001, 253_402_300_799_999, 253_402_300_800_000)
    for (let year = 1000; year <= 9900; year += 100) instants.push(Date.UTC(year, 1, 28, 23, 59, 59, 999), Date.UTC(year, 2, 1), Date.UTC(year, 11, 31, 12))
    for (let step = 0; step < 5000; step++) instants.push(-30_610_224_000_000 + step * 56_804_504_959)
    for (const time of instants) {
      const value = { at: new Date(time), list: [new Date(time)] }
      expect(toJsonText(value)).toBe(JSON.stringify(value))
      expect(JSON.parse(toJsonText(value)).at).toBe(new Date(time).toISOString())
    }
  })

  it('hands years outside 1000–9999 and invalid dates to the native method', () => {
    for (const value of [new Date('0999-12-31T23:59:59.999Z'), new Date(Date.UTC(10_000, 0, 1)), new Date(-8.64e15), new Date(Number.NaN)]) {
      expect(toJsonText({ value })).toBe(JSON.stringify({ value }))
    }
    expect(toJsonText({ value: new Date(Number.NaN) })).toBe('{"value":null}')
  })

  it('gives the same text as JSON.stringify for a session answer and for odd values', () => {
    const at = new Date('2026-01-02T03:04:05.678Z')
    const answer = {
      session: { id: 's1', token: 'h', expiresAt: at, createdAt: at, ipAddress: null, extra: undefined },
      user: { id: 'u1', email: 'a@example.com', emailVerified: true, image: null, createdAt: at, tags: ['a', 1, null] },
    }
    expect(toJsonText(answer)).toBe(JSON.stringify(answer))
    const odd = {
      nested: [[{ at }], [undefined, () => 1]],
      nonFinite: [Number.NaN, Number.POSITIVE_INFINITY, -0],
      ordered: { b: 1, 2: 'two', a: 3, 1: 'one' },
      boxed: Object(String('s')) as unknown,
      empty: {},
      withNull: Object.assign(Object.create(null) as object, { at }),
    }
    expect(toJsonText(odd)).toBe(JSON.stringify(odd))
    expect(toJsonText(null)).toBe('null')
    expect(toJsonText('text')).toBe('"text"')
  })

  it('escapes strings and keys as JSON.stringify does', () => {
    const texts = ['plain', '', 'quote " and \\ backslash', 'line\nbreak\ttab\u0000\u001f\u007f', 'é😀', '\ud800 lone', 'end \udfff', '</script>', '\u2028\u2029']
    for (const text of texts) {
      const value = { [text]: text, list: [text] }
      expect(toJsonText(value)).toBe(JSON.stringify(value))
    }
  })

  it('calls toJSON with the property key, invokes getters once, and serializes class instances by their own keys', () => {
    const seen: string[] = []
    const keyed = { toJSON: (key: string) => (seen.push(key), `for ${key}`) }
    let reads = 0
    const withGetter = {
      get value() {
        reads++
        return new Date(0)
      },
    }
    class Point {
      constructor(
        readonly x: number,
        readonly at: Date,
      ) {}
      get ignored() {
        return 'prototype getters are not own keys'
      }
    }
    const value = { a: keyed, list: [keyed], withGetter, point: new Point(1, new Date(5)), symbol: Symbol('s'), fn: () => 1, arrayOfOdd: [Symbol('s'), () => 1, undefined] }
    expect(toJsonText(value)).toBe(JSON.stringify(value))
    expect(seen).toEqual(['a', '0', 'a', '0'])
    expect(reads).toBe(2)
    expect(toJsonText(() => 1)).toBe(JSON.stringify(() => 1))
  })

  it('agrees with JSON.stringify on random nested values', () => {
    // A fixed linear congruential sequence: the same cases on every run.
    let seed = 12_345
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648
    const leaf = (): unknown => {
      const pick = Math.floor(next() * 10)
      if (pick === 0) return null
      if (pick === 1) return next() < 0.5
      if (pick === 2) return Math.floor(next() * 1e6) - 5e5
      if (pick === 3) return next() * 1e-3
      if (pick === 4) return new Date(Math.floor(next() * 4e12) - 1e12)
      if (pick === 5) return undefined
      if (pick === 6) return String.fromCharCode(...Array.from({ length: Math.floor(next() * 8) }, () => Math.floor(next() * 0x80)))
      if (pick === 7) return [Number.NaN, Number.NEGATIVE_INFINITY, -0][Math.floor(next() * 3)]
      return `text ${String(Math.floor(next() * 100))}`
    }
    const build = (depth: number): unknown => {
      if (depth > 3 || next() < 0.3) return leaf()
      if (next() < 0.5) return Array.from({ length: Math.floor(next() * 5) }, () => build(depth + 1))
      const record: Record<string, unknown> = {}
      for (let i = Math.floor(next() * 6); i > 0; i--) record[next() < 0.2 ? String(i) : `k${String(Math.floor(next() * 50))}`] = build(depth + 1)
      return record
    }
    for (let i = 0; i < 2000; i++) {
      const value = build(0)
      expect(toJsonText(value)).toBe(JSON.stringify(value))
    }
  })

  it('leaves a toJSON of the value’s own, class instances and own "__proto__" keys to JSON.stringify', () => {
    const at = new Date('2026-01-02T03:04:05.678Z')
    const custom = Object.assign(new Date(at), { toJSON: () => 'custom' })
    class Point {
      constructor(readonly x: number, readonly at: Date) {}
    }
    const withToJSON = { toJSON: () => ({ replaced: true }), at }
    const parsed: unknown = JSON.parse('{"__proto__":{"at":1},"b":2}')
    for (const value of [{ custom }, { point: new Point(1, at) }, { withToJSON }, parsed, new Point(2, at)]) {
      expect(toJsonText(value)).toBe(JSON.stringify(value))
    }
    expect(toJsonText({ custom })).toBe('{"custom":"custom"}')
    expect(toJsonText(parsed)).toBe('{"__proto__":{"at":1},"b":2}')
  })

  it('still refuses cycles and BigInt as JSON.stringify does', () => {
    const cycle: Record<string, unknown> = { at: new Date(0) }
    cycle.self = cycle
    expect(() => toJsonText(cycle)).toThrow(TypeError)
    expect(() => toJsonText({ n: 1n })).toThrow(TypeError)
    expect(() => toJsonText([Object(1n) as unknown])).toThrow(TypeError)
    const shared = { at: new Date(0) }
    expect(toJsonText({ a: shared, b: [shared, shared] })).toBe(JSON.stringify({ a: shared, b: [shared, shared] }))
    let deep: unknown = { at: new Date(0) }
    for (let i = 0; i < 100; i++) deep = { deep }
    expect(toJsonText(deep)).toBe(JSON.stringify(deep))
  })
})
