import { describe, expect, it } from 'vitest'
import { publicRow, reviveDates } from './output.js'
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
