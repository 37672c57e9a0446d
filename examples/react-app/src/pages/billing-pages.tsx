/**
 * The billing page's outbound buttons (docs/billing.md#outbound-calls):
 * "Upgrade" starts a checkout for the product the server maps to the slug
 * `pro` (POLAR_PRODUCTS) and "Manage subscription" opens the customer
 * portal. Both answer `{ url, redirect }` and the client sends the browser
 * to the billing platform; a failure (no POLAR_ACCESS_TOKEN, the platform
 * down) shows the server's message. The plan itself is shown from the
 * mirror, which the platform's webhooks keep up to date.
 */
import { Status, useAction } from '../action.js'
import { client } from '../auth-client.js'

export function BillingActions({ subscribed }: { subscribed: boolean }) {
  const action = useAction()
  return (
    <div>
      {subscribed ? null : (
        <button type="button" disabled={action.pending} onClick={() => void action.run(() => client.checkout({ slug: 'pro' }))}>
          Upgrade
        </button>
      )}{' '}
      <button type="button" disabled={action.pending} onClick={() => void action.run(() => client.portal())}>
        Manage subscription
      </button>
      <Status action={action} />
    </div>
  )
}
