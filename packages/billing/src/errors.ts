/**
 * @module
 * The billing plugin's error catalogue. A webhook whose signature does not
 * verify is answered 403 with the verifier's own message as the message
 * (docs/billing.md#secrets-and-verification: the log and the platform see what
 * failed); the catalogue text below is only the fallback. An
 * event the database could not take for a temporary reason is answered 503,
 * so the platform delivers it again. Reading another party's billing is
 * refused with 403. A usage event outside the application's catalogue, or
 * whose metadata its rule refuses, is 400; one the platform itself refuses
 * is 422, answered to that event's caller only.
 */
import { defineErrors } from '@gatehouse/core'

/**
 * @example
 * throw new AuthError(BillingErrors.WEBHOOK_VERIFICATION_FAILED, { message: 'No matching signature found' })
 */
export const BillingErrors = defineErrors({
  WEBHOOK_VERIFICATION_FAILED: { status: 403, message: 'Webhook verification failed' },
  // Nothing was logged: the database could not take the event now (docs/billing.md "The endpoint").
  WEBHOOK_TEMPORARILY_UNAVAILABLE: { status: 503, message: 'The event could not be processed now; deliver it again' },
  YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION: { status: 403, message: 'You are not a member of this organization' },
  YOU_ARE_NOT_ALLOWED_TO_READ_THIS_BILLING: { status: 403, message: 'You are not allowed to read the billing of this organization' },
  ORGANIZATION_BILLING_IS_NOT_ENABLED: { status: 400, message: 'Organization billing is not enabled' },
  // Outbound calls (docs/billing.md#outbound-calls): the platform's own error text and the token never reach the client.
  YOU_ARE_NOT_ALLOWED_TO_MANAGE_THIS_BILLING: { status: 403, message: 'You are not allowed to manage the billing of this organization' },
  BILLING_PLATFORM_NOT_CONFIGURED: { status: 501, message: 'Billing platform access is not configured' },
  PLATFORM_UNAVAILABLE: { status: 503, message: 'The billing platform is unavailable; try again later' },
  PLATFORM_BAD_RESPONSE: { status: 502, message: 'The billing platform answered with an error' },
  PRODUCT_NOT_FOUND: { status: 400, message: 'Product not found' },
  INVALID_SUCCESS_URL: { status: 403, message: 'Invalid successUrl' },
  CUSTOMER_NOT_FOUND: { status: 404, message: 'No billing customer yet' },
  // Usage (docs/billing.md#usage-events): only the application's catalogue of events, checked by their rules.
  UNKNOWN_USAGE_EVENT: { status: 400, message: 'Unknown usage event' },
  INVALID_USAGE_EVENT: { status: 400, message: 'Invalid usage event' },
  // The platform refused this event itself (a 422): sending it again will not help.
  USAGE_EVENT_REJECTED: { status: 422, message: 'The billing platform refused the usage event' },
})

export type BillingErrorCode = keyof typeof BillingErrors
