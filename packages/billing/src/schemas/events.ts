/**
 * @module
 * The webhook events (docs/billing.md#events): each payload is
 * `{ type, timestamp, data }`, and the type names the schema of `data`.
 * Parsing answers a value, as zod's `safeParse` does: an unknown type and a
 * payload that fails its schema are expected outcomes the receiver records,
 * not exceptions ("Unknown event type: {type}", "Failed to parse event").
 */
import { z } from 'zod'
import { benefitGrantSchema, benefitSchema } from './benefit.js'
import { checkoutSchema } from './checkout.js'
import { datetime } from './common.js'
import { customerSchema, customerStateSchema } from './customer.js'
import { orderSchema, refundSchema } from './order.js'
import { sellerOrganizationSchema } from './organization.js'
import { productSchema } from './product.js'
import { subscriptionSchema } from './subscription.js'

/** Every event type the platform sends and the schema of its `data` (named, so declarations stay small). */
export interface EventSchemas {
  readonly 'customer.created': typeof customerSchema
  readonly 'customer.updated': typeof customerSchema
  readonly 'customer.deleted': typeof customerSchema
  readonly 'customer.state_changed': typeof customerStateSchema
  readonly 'benefit.created': typeof benefitSchema
  readonly 'benefit.updated': typeof benefitSchema
  readonly 'benefit_grant.created': typeof benefitGrantSchema
  readonly 'benefit_grant.cycled': typeof benefitGrantSchema
  readonly 'benefit_grant.revoked': typeof benefitGrantSchema
  readonly 'benefit_grant.updated': typeof benefitGrantSchema
  readonly 'checkout.created': typeof checkoutSchema
  readonly 'checkout.updated': typeof checkoutSchema
  readonly 'order.created': typeof orderSchema
  readonly 'order.paid': typeof orderSchema
  readonly 'order.updated': typeof orderSchema
  readonly 'order.refunded': typeof orderSchema
  readonly 'organization.updated': typeof sellerOrganizationSchema
  readonly 'product.created': typeof productSchema
  readonly 'product.updated': typeof productSchema
  readonly 'refund.created': typeof refundSchema
  readonly 'refund.updated': typeof refundSchema
  readonly 'subscription.created': typeof subscriptionSchema
  readonly 'subscription.active': typeof subscriptionSchema
  readonly 'subscription.updated': typeof subscriptionSchema
  readonly 'subscription.canceled': typeof subscriptionSchema
  readonly 'subscription.uncanceled': typeof subscriptionSchema
  readonly 'subscription.revoked': typeof subscriptionSchema
}

export const eventSchemas: EventSchemas = {
  'customer.created': customerSchema,
  'customer.updated': customerSchema,
  'customer.deleted': customerSchema,
  'customer.state_changed': customerStateSchema,
  'benefit.created': benefitSchema,
  'benefit.updated': benefitSchema,
  'benefit_grant.created': benefitGrantSchema,
  'benefit_grant.cycled': benefitGrantSchema,
  'benefit_grant.revoked': benefitGrantSchema,
  'benefit_grant.updated': benefitGrantSchema,
  'checkout.created': checkoutSchema,
  'checkout.updated': checkoutSchema,
  'order.created': orderSchema,
  'order.paid': orderSchema,
  'order.updated': orderSchema,
  'order.refunded': orderSchema,
  'organization.updated': sellerOrganizationSchema,
  'product.created': productSchema,
  'product.updated': productSchema,
  'refund.created': refundSchema,
  'refund.updated': refundSchema,
  'subscription.created': subscriptionSchema,
  'subscription.active': subscriptionSchema,
  'subscription.updated': subscriptionSchema,
  'subscription.canceled': subscriptionSchema,
  'subscription.uncanceled': subscriptionSchema,
  'subscription.revoked': subscriptionSchema,
}

export type BillingEventType = keyof EventSchemas

/** One event, its `data` typed by its `type`. */
export type BillingEventOf<T extends BillingEventType> = {
  readonly type: T
  /** When the event happened on the platform. */
  readonly timestamp: Date
  readonly data: z.output<EventSchemas[T]>
}

/** Any event: narrow it with `event.type`. */
export type BillingEvent = { [T in BillingEventType]: BillingEventOf<T> }[BillingEventType]

export const eventTypes = Object.keys(eventSchemas) as BillingEventType[]

/**
 * @example
 * isEventType('order.paid') // true
 * isEventType('member.created') // false
 */
export function isEventType(type: string): type is BillingEventType {
  return Object.hasOwn(eventSchemas, type)
}

/** Why a payload is not an event this version can apply; `message` is the documented text (docs/billing.md#events). */
export interface EventProblem {
  readonly reason: 'unknown-type' | 'invalid'
  readonly message: string
  /** The type as sent, when there is one. */
  readonly type: string | null
  readonly issues: readonly { readonly path: string; readonly message: string }[]
}

export type ParsedEvent = { readonly ok: true; readonly event: BillingEvent } | ({ readonly ok: false } & EventProblem)

const envelope = z.looseObject({ type: z.string(), timestamp: datetime, data: z.unknown() })

type Issue = z.core.$ZodIssue

function isFallback(issue: Issue): boolean {
  return issue.code === 'custom' && issue.params?.fallback === true
}

/** Issues with their paths joined; a union reports the issues of its closest branch, not a bare "Invalid input". */
function issuesOf(error: z.ZodError, prefix: string): EventProblem['issues'] {
  const flat: { path: string; message: string }[] = []
  const walk = (issues: readonly Issue[], path: readonly PropertyKey[]): void => {
    for (const issue of issues) {
      const at = [...path, ...issue.path]
      const branches = issue.code === 'invalid_union' ? issue.errors.filter((branch) => !branch.every(isFallback)) : []
      if (branches.length > 0) {
        walk(branches.reduce((closest, branch) => (branch.length < closest.length ? branch : closest)), at)
      } else {
        flat.push({ path: [prefix, ...at.map(String)].filter(Boolean).join('.'), message: issue.message })
      }
    }
  }
  walk(error.issues, [])
  return flat
}

/**
 * Parses a verified payload (already `JSON.parse`d).
 *
 * @example
 * const parsed = safeParseEvent(JSON.parse(body))
 * if (parsed.ok && parsed.event.type === 'order.paid') parsed.event.data.totalAmount
 */
export function safeParseEvent(payload: unknown): ParsedEvent {
  const outer = envelope.safeParse(payload)
  if (!outer.success) {
    const type = typeof payload === 'object' && payload !== null && 'type' in payload && typeof payload.type === 'string' ? payload.type : null
    // The type decides first: a type this version does not know is ignored, whatever the rest of its envelope holds.
    if (type !== null && !isEventType(type)) return unknownType(type)
    return { ok: false, reason: 'invalid', message: 'Failed to parse event', type, issues: issuesOf(outer.error, '') }
  }
  const { type, timestamp, data } = outer.data
  if (!isEventType(type)) return unknownType(type)
  const inner = eventSchemas[type].safeParse(data)
  if (!inner.success) return { ok: false, reason: 'invalid', message: 'Failed to parse event', type, issues: issuesOf(inner.error, 'data') }
  // `inner.data` is the output of the schema `type` names, so the pair is one member of the union.
  return { ok: true, event: { type, timestamp, data: inner.data } as BillingEvent }
}

function unknownType(type: string): ParsedEvent {
  return { ok: false, reason: 'unknown-type', message: `Unknown event type: ${type}`, type, issues: [] }
}

/** Thrown by `parseEvent`: "Unknown event type: {type}" or "Failed to parse event", with the issues. */
export class BillingEventValidationError extends Error {
  override readonly name = 'BillingEventValidationError'
  readonly reason: EventProblem['reason']
  readonly type: string | null
  readonly issues: EventProblem['issues']

  constructor(problem: EventProblem) {
    super(problem.message)
    this.reason = problem.reason
    this.type = problem.type
    this.issues = problem.issues
  }
}

/**
 * The throwing form, for code that receives events some other way.
 *
 * @example
 * try { const event = parseEvent(JSON.parse(body)) } catch (error) { if (error instanceof BillingEventValidationError) ... }
 */
export function parseEvent(payload: unknown): BillingEvent {
  const parsed = safeParseEvent(payload)
  if (!parsed.ok) throw new BillingEventValidationError(parsed)
  return parsed.event
}
