export { billing } from './plugin.js'
export { BillingErrors } from './errors.js'
export type { BillingErrorCode } from './errors.js'
export { billingSchema } from './schema.js'
export { DEFAULT_PENDING_GRACE_SECONDS, DEFAULT_TOLERANCE_SECONDS, DEFAULT_WEBHOOK_PATH, resolveBillingOptions } from './options.js'
export type { BillingOptions, PermissionRequest, ResolvedBillingOptions } from './options.js'
export { handlerNames } from './handlers.js'
export type { BillingEventHandlers, HandlerContext } from './handlers.js'
export { verifyWebhook, webhookKeys, WebhookVerificationError } from './webhooks/verify.js'
export type { VerifiedDelivery, VerifyInput, WebhookKey } from './webhooks/verify.js'
export type { BillingEvent, BillingEventOf, BillingEventType, EventProblem, EventSchemas, ParsedEvent } from './schemas/events.js'
export type { BillingEventRecord, EventStatus } from './events/log.js'
export type { DeliveryResult, DeliveryStatus } from './events/receive.js'
export type { ReplayOutcome } from './events/replay.js'
export type {
  BillingBenefitGrant,
  BillingCustomer,
  BillingCustomerMeter,
  BillingOrder,
  BillingOrderItem,
  BillingSubscription,
  CustomerState,
  CustomerStateGrantView,
  CustomerStateMeterView,
  CustomerStateSubscriptionView,
  SubscriptionMeterUsage,
} from './read/shapes.js'
export type { Page } from './read/state.js'
// The event schemas and their parsers are values of `@gatehouse/billing/events` (event-schemas.ts): loading
// them builds some 800 zod schemas, which a server that never parses an event should not pay for.
export type * from './schemas/types.js'
export type { CheckoutProduct, OutboundOptions, ResolvedOutbound } from './outbound/options.js'
export type { PlatformOptions } from './outbound/platform.js'
export { DEFAULT_USAGE_RATE_LIMIT } from './outbound/usage-events.js'
export type { UsageEventRule, UsageMetadata, UsageMetadataSchema, UsageRateLimit } from './outbound/usage-events.js'
export type { CustomerSyncRecord, SyncAction, SyncOutcome } from './outbound/customer-sync.js'
