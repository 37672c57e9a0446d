/**
 * @module
 * What `billing(options)` accepts, resolved once when the plugin is made.
 * Defaults: webhooks at `/polar/webhooks`, a signature timestamp tolerance
 * of 300 s both ways (the Standard Webhooks default), a 300 s grace before a `pending` event is
 * replayed, no email linking, and organization billing
 * readable by members whose roles grant `organization: ['update']` (owners
 * and admins with the default roles).
 */
import type { BillingEventHandlers } from './handlers.js'
import type { EventLogOptions } from './retention.js'
import { resolveOutbound, type OutboundOptions, type ResolvedOutbound } from './outbound/options.js'

/** Resources and the actions asked for, as the organization plugin's roles grant them. */
export type PermissionRequest = Readonly<Record<string, readonly string[]>>

export interface BillingOptions extends OutboundOptions {
  readonly webhooks: BillingEventHandlers & {
    /**
     * The endpoint's signing secret (`whsec_...`); several during a rotation.
     * Both of the platform's key schemes are tried (docs/billing.md "Secrets").
     */
    readonly secret: string | readonly string[]
    /** The route below the base path. Default `/polar/webhooks`. */
    readonly path?: string | undefined
    /** Seconds a signature timestamp may be off, either way: replay protection. Default 300. */
    readonly toleranceSeconds?: number | undefined
    /**
     * Seconds an event may stay `pending` (applied, its handlers not yet
     * finished) before `replayBillingEvents` takes it as abandoned and runs
     * its handlers again. Longer than your slowest handler. Default 300.
     */
    readonly pendingGraceSeconds?: number | undefined
  }
  /**
   * Link a customer without `external_id` to the user with the same email,
   * only while the address is verified on both sides: the user's in the
   * user row and the customer's on the platform (`email_verified`). Default
   * false: only `external_id = user id` links (docs/billing.md#whose-customer).
   */
  readonly linkCustomersByEmail?: boolean | undefined
  /**
   * Organization billing: a customer whose `external_id` is an organization
   * id is read through `referenceId`, by members whose roles grant
   * `permissions` (checked by @gatehouse/organization). False turns it off.
   * Default `{ permissions: { organization: ['update'] } }`.
   */
  readonly organizationBilling?: false | { readonly permissions?: PermissionRequest | undefined } | undefined
  /** Retention of settled events, enforced by `auth.api.cleanup()` (retention.ts). Default: kept forever. */
  readonly eventLog?: EventLogOptions | undefined
}

export interface ResolvedBillingOptions {
  readonly secrets: readonly string[]
  readonly path: string
  readonly toleranceSeconds: number
  readonly pendingGraceSeconds: number
  readonly handlers: BillingEventHandlers
  readonly linkCustomersByEmail: boolean
  readonly organizationPermissions: PermissionRequest | null
  /** Platform access, checkout products, customer sync and usage batching (outbound/options.ts). */
  readonly outbound: ResolvedOutbound
}

export const DEFAULT_WEBHOOK_PATH = '/polar/webhooks'
export const DEFAULT_TOLERANCE_SECONDS = 300
export const DEFAULT_PENDING_GRACE_SECONDS = 300

/**
 * @example
 * resolveBillingOptions({ webhooks: { secret: 'whsec_...' } }).toleranceSeconds // 300
 */
export function resolveBillingOptions(options: BillingOptions): ResolvedBillingOptions {
  const { secret, path, toleranceSeconds, pendingGraceSeconds, ...handlers } = options.webhooks
  const secrets = (typeof secret === 'string' ? [secret] : [...secret]).filter((value) => value !== '')
  if (secrets.length === 0) throw new Error('billing: webhooks.secret is required')
  const tolerance = toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new Error('billing: webhooks.toleranceSeconds must be a non-negative number')
  const grace = pendingGraceSeconds ?? DEFAULT_PENDING_GRACE_SECONDS
  if (!Number.isFinite(grace) || grace < 0) throw new Error('billing: webhooks.pendingGraceSeconds must be a non-negative number')
  const organization = options.organizationBilling
  return {
    secrets,
    path: path ?? DEFAULT_WEBHOOK_PATH,
    toleranceSeconds: tolerance,
    pendingGraceSeconds: grace,
    handlers,
    linkCustomersByEmail: options.linkCustomersByEmail ?? false,
    organizationPermissions: organization === false ? null : (organization?.permissions ?? { organization: ['update'] }),
    outbound: resolveOutbound(options),
  }
}
