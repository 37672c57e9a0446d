import { describe, expect, it } from 'vitest'
import { benefitSchema } from './benefit.js'
import { camelCase, datetime } from './common.js'
import { microsecondsOf } from './instants.js'
import { BillingEventValidationError, parseEvent, safeParseEvent } from './events.js'
import { meterSchema } from './meter.js'
import { productPriceSchema } from './product.js'

const price = { id: 'p1', is_archived: false, product_id: 'prod', price_currency: 'usd' }
const benefit = {
  id: 'b1',
  created_at: '2026-01-01T00:00:00Z',
  modified_at: null,
  description: 'A benefit',
  selectable: true,
  deletable: true,
  organization_id: 'seller',
  metadata: { plan_key: 'pro' },
}

describe('camelCase', () => {
  it('renames snake_case keys', () => {
    expect(camelCase('customer_external_id')).toBe('customerExternalId')
    expect(camelCase('line1')).toBe('line1')
    expect(camelCase('checksum_sha256_hex')).toBe('checksumSha256Hex')
  })
})

describe('datetime', () => {
  it('hands out a Date and keeps the instant to the microsecond, as sent', () => {
    const date = datetime.parse('2026-01-01T09:00:00.000001Z')
    expect(date).toEqual(new Date('2026-01-01T09:00:00.000Z'))
    expect(microsecondsOf(date)).toBe(Date.parse('2026-01-01T09:00:00Z') * 1000 + 1)
    expect(microsecondsOf(datetime.parse('2026-01-01T09:00:00.123456+02:00'))).toBe(Date.parse('2026-01-01T07:00:00Z') * 1000 + 123_456)
    expect(microsecondsOf(datetime.parse('2026-01-01T09:00:00.5Z'))).toBe(Date.parse('2026-01-01T09:00:00Z') * 1000 + 500_000)
    expect(microsecondsOf(datetime.parse('2026-01-01T09:00:00Z'))).toBe(Date.parse('2026-01-01T09:00:00Z') * 1000)
    // Past the sixth digit, nanoseconds are dropped, never rounded up into the next microsecond.
    expect(microsecondsOf(datetime.parse('2026-01-01T09:00:00.0000019Z'))).toBe(Date.parse('2026-01-01T09:00:00Z') * 1000 + 1)
  })

  it('orders two instants within one millisecond, which their Dates cannot', () => {
    const [a, b] = ['2026-01-01T09:00:00.000100Z', '2026-01-01T09:00:00.000900Z'].map((text) => datetime.parse(text))
    expect(a?.getTime()).toBe(b?.getTime())
    expect(microsecondsOf(b as Date) - microsecondsOf(a as Date)).toBe(800)
  })

  it('counts a Date the schemas did not parse in whole milliseconds', () => {
    expect(microsecondsOf(new Date('2026-01-01T09:00:00.123Z'))).toBe(Date.parse('2026-01-01T09:00:00.123Z') * 1000)
  })
})

describe('entity schemas', () => {
  it('hand out camelCase, keep map keys as sent, and pass unknown fields through', () => {
    const parsed = benefitSchema.parse({ ...benefit, type: 'custom', properties: { note: null, added_later: 1 }, visibility: 'public' })
    expect(parsed).toMatchObject({
      createdAt: new Date('2026-01-01T00:00:00Z'),
      organizationId: 'seller',
      metadata: { plan_key: 'pro' },
      properties: { note: null, addedLater: 1 },
      visibility: 'public',
    })
  })

  it('reads every amount type, free and legacy included, and keeps a new one', () => {
    const fixed = productPriceSchema.parse({ ...price, amount_type: 'fixed', price_amount: 900, type: 'recurring', recurring_interval: 'month', legacy: true })
    expect(fixed).toMatchObject({ amountType: 'fixed', priceAmount: 900, legacy: true, recurringInterval: 'month' })
    expect(productPriceSchema.parse({ ...price, amount_type: 'free' })).toMatchObject({ amountType: 'free' })
    expect(productPriceSchema.parse({ ...price, amount_type: 'custom', minimum_amount: null, maximum_amount: null, preset_amount: 500 })).toMatchObject({
      presetAmount: 500,
    })
    const metered = productPriceSchema.parse({ ...price, amount_type: 'metered_unit', unit_amount: '0.005', cap_amount: null, meter_id: 'm1', meter: { id: 'm1', name: 'Tokens' } })
    expect(metered).toMatchObject({ unitAmount: '0.005', meter: { name: 'Tokens' } })
    expect(productPriceSchema.parse({ ...price, amount_type: 'seat_based', seat_tiers: {} })).toMatchObject({ amountType: 'seat_based', seatTiers: {} })
  })

  it('refuses a known amount type missing its fields, and a fractional amount', () => {
    expect(productPriceSchema.safeParse({ ...price, amount_type: 'fixed' }).success).toBe(false)
    expect(productPriceSchema.safeParse({ ...price, amount_type: 'fixed', price_amount: 9.5 }).success).toBe(false)
  })

  it('keeps a benefit of a type this version does not know, but not a known one with wrong properties', () => {
    expect(benefitSchema.parse({ ...benefit, type: 'feature_flag', properties: { flag_key: 'beta' } })).toMatchObject({ type: 'feature_flag', properties: { flag_key: 'beta' } })
    expect(benefitSchema.safeParse({ ...benefit, type: 'discord', properties: { guild_id: 'g' } }).success).toBe(false)
    const keys = benefitSchema.parse({
      ...benefit,
      type: 'license_keys',
      properties: { prefix: null, expires: { ttl: 30, timeframe: 'day' }, activations: null, limit_usage: 5 },
    })
    expect(keys).toMatchObject({ properties: { expires: { ttl: 30, timeframe: 'day' }, limitUsage: 5 } })
  })

  it('reads a meter with nested filter clauses; the aggregation defaults to count', () => {
    const meter = meterSchema.parse({
      id: 'm1',
      name: 'Requests',
      metadata: {},
      created_at: '2026-01-01T00:00:00Z',
      modified_at: null,
      organization_id: 'seller',
      filter: {
        conjunction: 'or',
        clauses: [
          { property: 'path', operator: 'like', value: '/api/%' },
          { conjunction: 'and', clauses: [{ property: 'ok', operator: 'eq', value: true }, { property: 'ms', operator: 'gte', value: 10 }] },
        ],
      },
      aggregation: {},
    })
    expect(meter.aggregation).toEqual({ func: 'count' })
    expect(meter.filter.clauses[1]).toEqual({ conjunction: 'and', clauses: [{ property: 'ok', operator: 'eq', value: true }, { property: 'ms', operator: 'gte', value: 10 }] })
  })
})

describe('safeParseEvent', () => {
  it('an unknown type: "Unknown event type: {type}"', () => {
    expect(safeParseEvent({ type: 'member.created', timestamp: '2026-01-01T00:00:00Z', data: {} })).toEqual({
      ok: false,
      reason: 'unknown-type',
      message: 'Unknown event type: member.created',
      type: 'member.created',
      issues: [],
    })
  })

  it('the type decides first: an unknown type without a usable timestamp is still unknown, not a parse failure', () => {
    for (const payload of [{ type: 'member.created', data: {} }, { type: 'member.created', timestamp: 'soon', data: {} }, { type: 'member.created' }]) {
      expect(safeParseEvent(payload)).toEqual({ ok: false, reason: 'unknown-type', message: 'Unknown event type: member.created', type: 'member.created', issues: [] })
    }
    expect(safeParseEvent({ type: 'order.paid', data: {} })).toMatchObject({ ok: false, reason: 'invalid', message: 'Failed to parse event', type: 'order.paid' })
  })

  it('a schema failure: "Failed to parse event", with the issues of the closest union branch', () => {
    const parsed = safeParseEvent({ type: 'benefit.created', timestamp: '2026-01-01T00:00:00Z', data: { ...benefit, type: 'discord', properties: { guild_id: 'g' } } })
    expect(parsed).toMatchObject({ ok: false, reason: 'invalid', message: 'Failed to parse event', type: 'benefit.created' })
    expect(parsed.ok ? [] : parsed.issues.map((issue) => issue.path)).toEqual(['data.properties.role_id', 'data.properties.guild_token'])
  })

  it('an envelope without an offset datetime fails too', () => {
    expect(safeParseEvent({ type: 'order.paid', timestamp: '2026-01-01T00:00:00', data: {} })).toMatchObject({ ok: false, message: 'Failed to parse event', type: 'order.paid' })
    expect(safeParseEvent('nope')).toMatchObject({ ok: false, message: 'Failed to parse event', type: null })
  })

  it('parseEvent throws BillingEventValidationError with the same message and issues', () => {
    expect(() => parseEvent({ type: 'x.y', timestamp: '2026-01-01T00:00:00Z', data: {} })).toThrow(BillingEventValidationError)
    expect(() => parseEvent({ type: 'x.y', timestamp: '2026-01-01T00:00:00Z', data: {} })).toThrow('Unknown event type: x.y')
  })
})
