/**
 * The fixtures are the platform's shapes, not only ours: each one parses
 * with the billing platform SDK's own schema for its event
 * (`Webhook<Event>Payload$inboundSchema` of @polar-sh/sdk 0.49), and with
 * ours. Every event type the platform sends has one.
 */
import { describe, expect, it } from 'vitest'
import { eventTypes, safeParseEvent } from '../src/event-schemas.js'
import { everyEvent } from './fixtures/payloads.js'

interface InboundSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: unknown[] } }
}

/** `benefit_grant.cycled` → `BenefitGrantCycled`. */
function pascal(type: string): string {
  return type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')
}

async function sdkSchema(type: string): Promise<InboundSchema> {
  const name = pascal(type)
  const module: Record<string, unknown> = await import(`@polar-sh/sdk/models/components/webhook${name.toLowerCase()}payload.js`)
  const schema = module[`Webhook${name}Payload$inboundSchema`]
  if (!schema) throw new Error(`no SDK schema for ${type}`)
  return schema as InboundSchema
}

describe('fixtures against the platform SDK', () => {
  const fixtures = everyEvent()

  it('cover every event type', () => {
    expect(Object.keys(fixtures).sort()).toEqual([...eventTypes].sort())
  })

  for (const type of eventTypes) {
    it(`${type} parses with the SDK's schema and ours`, async () => {
      const payload = fixtures[type]
      const sdk = (await sdkSchema(type)).safeParse(payload)
      expect(sdk.error?.issues ?? []).toEqual([])
      expect(sdk.success).toBe(true)
      const ours = safeParseEvent(payload)
      expect(ours.ok ? [] : ours.issues).toEqual([])
      expect(ours.ok && ours.event.type).toBe(type)
    })
  }
})
