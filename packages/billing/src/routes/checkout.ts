/**
 * @module
 * POST /checkout (docs/billing.md#checkout): a checkout on the billing
 * platform for the signed-in user, or for an organization the user may
 * manage the billing of (`referenceId`, checked by @gatehouse/organization
 * like the reading routes). The customer is named by external id (the user
 * or organization id), so the platform links the purchase to them and the
 * webhook mirror finds it. Products are platform ids (`products`) or a
 * configured slug (`slug`). `successUrl` is a redirect target and passes
 * the trusted-origin rule (docs/security.md#trusted-origins-securityoriginsts):
 * otherwise a checkout on our account would send buyers to any site.
 * The user's email is handed to the platform only while it is verified
 * (read from the user row, not the session's cached copy): an unverified
 * address is anyone's claim, and the platform would send receipts, and its
 * customer-portal codes, to that mailbox and file the customer under it
 * (docs/billing.md#checkout). Otherwise the checkout asks the buyer for one.
 * Answers `{ url, redirect: true }`; the client navigates there.
 */
import { AuthError, CoreErrors, defineEndpoint, optionalSessionMiddleware, type AuthContext, type Row, type User } from '@gatehouse/core'
import { z } from 'zod'
import { BillingErrors } from '../errors.js'
import type { ResolvedBillingOptions } from '../options.js'
import type { OutboundRuntime } from '../outbound/runtime.js'
import { managedReference } from './billing-owner.js'

export const metadataSchema = z.lazy(() =>
  z.record(z.string().min(1).max(40), z.union([z.string().max(500), z.number(), z.boolean()])).refine((value) => Object.keys(value).length <= 50, {
    message: 'At most 50 metadata keys',
  }),
)

const body = z.lazy(() =>
  z
    .object({
      products: z.array(z.string().min(1).max(100)).min(1).max(10).optional(),
      slug: z.string().min(1).max(100).optional(),
      referenceId: z.string().min(1).optional(),
      metadata: metadataSchema.optional(),
      successUrl: z.string().min(1).max(2048).optional(),
      // The caller navigates itself: the answer says `redirect: false` (as core's social sign-in does).
      disableRedirect: z.boolean().optional(),
    })
    .refine((value) => (value.products === undefined) !== (value.slug === undefined), { message: 'Give either products or slug' }),
)

/** An absolute URL on a trusted origin: a path is resolved against our own origin first. */
function trustedUrl(auth: AuthContext, value: string): string | null {
  let url: URL
  try {
    url = new URL(value, auth.origin)
  } catch {
    return null
  }
  return auth.isTrustedOrigin(url.href) ? url.href : null
}

/**
 * @example
 * const { url } = await auth.api.checkout({ headers, body: { slug: 'pro' } })
 */
export function checkoutRoute(options: ResolvedBillingOptions, outbound: OutboundRuntime) {
  const settings = options.outbound
  return defineEndpoint({
    method: 'POST',
    path: '/checkout',
    body,
    use: [optionalSessionMiddleware],
    handler: async ({ body, db, auth, session }) => {
      const platform = outbound.platform(auth)
      if (!session && settings.authenticatedUsersOnly) throw new AuthError(CoreErrors.UNAUTHORIZED)
      const products = body.products ?? [settings.products.get(body.slug ?? '') ?? '']
      if (products.includes('')) throw new AuthError(BillingErrors.PRODUCT_NOT_FOUND)
      const requested = body.successUrl ?? settings.successUrl
      const successUrl = requested === undefined ? undefined : body.successUrl === undefined ? requested : trustedUrl(auth, requested)
      if (successUrl === null) throw new AuthError(BillingErrors.INVALID_SUCCESS_URL)
      let payer: { externalCustomerId: string; customerEmail?: string; customerName?: string } | Record<string, never> = {}
      if (session) {
        const { user } = session
        const referenceId = await managedReference({ db, auth }, options, outbound, { userId: user.id, referenceId: body.referenceId })
        const row = await db.findOne<User & Row>({ model: 'user', where: { field: 'id', value: user.id } })
        payer = {
          externalCustomerId: referenceId,
          ...(row?.emailVerified === true ? { customerEmail: row.email } : {}),
          ...(user.name ? { customerName: user.name } : {}),
        }
      } else if (body.referenceId !== undefined) throw new AuthError(CoreErrors.UNAUTHORIZED)
      const checkout = await platform.createCheckout({
        products,
        ...payer,
        ...(successUrl === undefined ? {} : { successUrl }),
        ...(body.metadata === undefined ? {} : { metadata: body.metadata }),
      })
      if (!checkout.ok) throw new AuthError(BillingErrors.PLATFORM_BAD_RESPONSE)
      return { url: checkout.value.url, redirect: body.disableRedirect !== true }
    },
  })
}
