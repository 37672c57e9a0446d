/**
 * @module
 * The application's event handlers: `onPayload` for every event, and one
 * typed handler per event type (`onOrderPaid`, `onBenefitGrantCycled`, ...).
 * They run after the mirror has committed, so a handler that reads the
 * mirror sees the event applied, and a handler that throws cannot undo or
 * corrupt it: the failure is logged, recorded on the event, and the event
 * can be replayed once the handler is fixed. Until they have run, the event
 * is logged as `pending`, so a process that dies in between leaves a row a
 * replay finds: handlers run at least once.
 */
import type { BillingEvent, BillingEventOf, BillingEventType } from './schemas/events.js'

/** The handler option each event type calls. */
export const handlerNames = {
  'customer.created': 'onCustomerCreated',
  'customer.updated': 'onCustomerUpdated',
  'customer.deleted': 'onCustomerDeleted',
  'customer.state_changed': 'onCustomerStateChanged',
  'benefit.created': 'onBenefitCreated',
  'benefit.updated': 'onBenefitUpdated',
  'benefit_grant.created': 'onBenefitGrantCreated',
  'benefit_grant.cycled': 'onBenefitGrantCycled',
  'benefit_grant.revoked': 'onBenefitGrantRevoked',
  'benefit_grant.updated': 'onBenefitGrantUpdated',
  'checkout.created': 'onCheckoutCreated',
  'checkout.updated': 'onCheckoutUpdated',
  'order.created': 'onOrderCreated',
  'order.paid': 'onOrderPaid',
  'order.updated': 'onOrderUpdated',
  'order.refunded': 'onOrderRefunded',
  'organization.updated': 'onOrganizationUpdated',
  'product.created': 'onProductCreated',
  'product.updated': 'onProductUpdated',
  'refund.created': 'onRefundCreated',
  'refund.updated': 'onRefundUpdated',
  'subscription.created': 'onSubscriptionCreated',
  'subscription.active': 'onSubscriptionActive',
  'subscription.updated': 'onSubscriptionUpdated',
  'subscription.canceled': 'onSubscriptionCanceled',
  'subscription.uncanceled': 'onSubscriptionUncanceled',
  'subscription.revoked': 'onSubscriptionRevoked',
} as const satisfies Record<BillingEventType, `on${string}`>

/** What a handler learns beside the event. */
export interface HandlerContext {
  /** The delivery's `webhook-id`: the same on every retry of one event. */
  readonly webhookId: string
  /** True when the event is being replayed from the log rather than received. */
  readonly replayed: boolean
  /** The payload as sent, snake_case, unknown fields included. */
  readonly payload: unknown
}

type MaybePromise<T> = T | Promise<T>

export type BillingEventHandlers = {
  readonly onPayload?: ((event: BillingEvent, ctx: HandlerContext) => MaybePromise<void>) | undefined
} & {
  readonly [T in BillingEventType as (typeof handlerNames)[T]]?: ((event: BillingEventOf<T>, ctx: HandlerContext) => MaybePromise<void>) | undefined
}

/**
 * Whether any handler runs for events of `type`. An event none handles is
 * logged as applied in the transaction that applies it: there is nothing left
 * to do after the commit, so no `pending` row and no second write.
 *
 * @example
 * hasHandlers({ onOrderPaid }, 'order.paid') // true
 */
export function hasHandlers(handlers: BillingEventHandlers, type: BillingEventType): boolean {
  return handlers.onPayload !== undefined || handlers[handlerNames[type]] !== undefined
}

/**
 * Runs `onPayload`, then the event's own handler. The first throw stops the
 * run and is returned as the failure's message.
 *
 * @example
 * const failure = await runHandlers(handlers, event, { webhookId, replayed: false, payload })
 */
export async function runHandlers(handlers: BillingEventHandlers, event: BillingEvent, ctx: HandlerContext): Promise<string | null> {
  // The typed map keys each handler by the event type it receives, so the lookup by `event.type` is that handler.
  const own = handlers[handlerNames[event.type]] as ((event: BillingEvent, ctx: HandlerContext) => MaybePromise<void>) | undefined
  try {
    await handlers.onPayload?.(event, ctx)
    await own?.(event, ctx)
    return null
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  }
}
