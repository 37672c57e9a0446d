import { describe, expect, it } from 'vitest'
import { parseIsoTime, publicRow, reviveDates } from './output.js'
import { coreSchema } from './schema.js'

describe('publicRow', () => {
  it('drops returned: false fields and keeps every other key, joined rows included', () => {
    const row = { id: 'a1', providerId: 'credential', password: 'hash', accessToken: 'secret', scope: null, extra: { nested: true } }
    const result = publicRow(coreSchema, 'account', row)
    expect(result).toEqual({ id: 'a1', providerId: 'credential', scope: null, extra: { nested: true } })
    expect(result).not.toBe(row)
    expect(row.password).toBe('hash')
  })
})

describe('reviveDates', () => {
  it('turns the ISO strings of date fields into Dates, each call its own objects', () => {
    const stored = { id: 's1', token: 'h', expiresAt: '2026-01-09T03:04:05.678Z', createdAt: '2026-01-02T03:04:05.678Z', ipAddress: '2026-01-02T03:04:05.678Z' }
    const first = reviveDates<Record<string, unknown>>(coreSchema, 'session', stored)
    const second = reviveDates<Record<string, unknown>>(coreSchema, 'session', stored)
    expect(first.expiresAt).toEqual(new Date('2026-01-09T03:04:05.678Z'))
    expect(first.createdAt).toEqual(new Date('2026-01-02T03:04:05.678Z'))
    // Not a date field: left as text.
    expect(first.ipAddress).toBe('2026-01-02T03:04:05.678Z')
    expect(second.expiresAt).toEqual(first.expiresAt)
    expect(second.expiresAt).not.toBe(first.expiresAt)
    expect(stored.expiresAt).toBe('2026-01-09T03:04:05.678Z')
  })

  it('gives an invalid Date for text that is no date, as new Date would, every time', () => {
    for (let i = 0; i < 2; i++) {
      const revived = reviveDates<{ updatedAt: Date }>(coreSchema, 'session', { updatedAt: 'not a date' })
      expect(Number.isNaN(revived.updatedAt.getTime())).toBe(true)
    }
  })

  it('keeps answering correctly past the size of its memory of recent texts', () => {
    const base = Date.UTC(2026, 0, 1)
    for (let i = 0; i < 3000; i++) {
      const text = new Date(base + i * 1000).toISOString()
      expect(reviveDates<{ createdAt: Date }>(coreSchema, 'user', { createdAt: text }).createdAt.getTime()).toBe(base + i * 1000)
    }
  })
})

describe('parseIsoTime', () => {
  it('answers exactly what Date.parse answers for toISOString texts across years 0000–9999', () => {
    const min = Date.parse('0000-01-01T00:00:00.000Z')
    const max = Date.parse('9999-12-31T23:59:59.999Z')
    let state = 0x2545f491
    const next = () => {
      // xorshift32: a fixed sequence, so a failure names a reproducible text.
      state ^= state << 13
      state ^= state >>> 17
      state ^= state << 5
      return (state >>> 0) / 2 ** 32
    }
    for (let i = 0; i < 20_000; i++) {
      const text = new Date(Math.floor(min + next() * (max - min))).toISOString()
      if (text.length !== 24) continue
      expect(parseIsoTime(text), text).toBe(Date.parse(text))
    }
  })

  it.each([
    '2024-02-29T12:00:00.000Z',
    '2023-02-29T12:00:00.000Z',
    '2026-04-31T00:00:00.000Z',
    '2026-13-01T00:00:00.000Z',
    '2026-00-10T00:00:00.000Z',
    '2026-01-00T00:00:00.000Z',
    '2026-01-10T24:00:00.000Z',
    '2026-01-10T23:60:00.000Z',
    '2026-01-10T23:59:60.000Z',
    '2026-01-1aT00:00:00.000Z',
    '2026-01-10 00:00:00.000Z',
    '2026-01-10T00:00:00.000+',
    '2026-01-10T00:00:00Z',
    '+012026-01-10T00:00:00.000Z',
    '2000-03-01T00:00:00.000Z',
    '1900-03-01T00:00:00.000Z',
    '0000-01-01T00:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    'not a date',
    '',
  ])('agrees with Date.parse on %j', (text) => {
    expect(Object.is(parseIsoTime(text), Date.parse(text))).toBe(true)
  })
})
