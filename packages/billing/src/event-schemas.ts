/**
 * @module
 * `@gatehouse/billing/events`: the webhook event schemas and their parsers
 * (docs/billing.md#events), for code that parses payloads itself. The
 * plugin loads this module with the first delivery; the package's main entry
 * exports only the types, so importing the plugin builds none of these schemas.
 */
export { BillingEventValidationError, eventSchemas, eventTypes, isEventType, parseEvent, safeParseEvent } from './schemas/events.js'
export type { BillingEvent, BillingEventOf, BillingEventType, EventProblem, EventSchemas, ParsedEvent } from './schemas/events.js'
export * from './schemas/index.js'
