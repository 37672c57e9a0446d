/**
 * Social sign-in in the app: "Continue with …" buttons for the providers
 * the server has configured (read once from the example server's
 * `GET /api/app-config`), the words for a failed attempt's `?error=<code>`
 * (shown by the app shell), and the profile page's linked accounts (list,
 * link another provider, unlink).
 */
import { useEffect, useState } from 'react'
import { Status, useAction } from '../action.js'
import { client } from '../auth-client.js'
import { LastUsed } from './last-used.js'

export interface SocialProvider {
  readonly id: string
  readonly name: string
}

let providersRequest: Promise<SocialProvider[]> | undefined

/** The configured providers; one request per page load, an empty list if the server does not say. */
function loadProviders(): Promise<SocialProvider[]> {
  providersRequest ??= fetch('/api/app-config', { headers: { accept: 'application/json' } })
    .then((response): Promise<{ socialProviders?: SocialProvider[] }> => (response.ok ? response.json() : Promise.resolve({})))
    .then((config) => config.socialProviders ?? [])
    .catch(() => [])
  return providersRequest
}

export function useSocialProviders(): SocialProvider[] | null {
  const [providers, setProviders] = useState<SocialProvider[] | null>(null)
  useEffect(() => {
    let live = true
    void loadProviders().then((list) => live && setProviders(list))
    return () => {
      live = false
    }
  }, [])
  return providers
}

/** What the social callback's `?error=` codes mean to the person (docs/social.md#errors); the app shell shows them. */
export const SOCIAL_ERRORS: Readonly<Record<string, string>> = {
  account_not_linked:
    'An account with this email already exists. Sign in with your password, then link this provider from your profile.',
  signup_disabled: 'There is no account for this sign-in, and new accounts cannot be created this way.',
  email_not_found: 'The provider did not share an email address, which an account needs.',
  unable_to_link_account: 'The account could not be linked: it must have the same, verified email address, in this browser.',
  account_already_linked_to_different_user: 'That provider account is already linked to another user.',
  access_denied: 'The sign-in was cancelled at the provider.',
  state_not_found: 'The sign-in expired or was started in another browser. Please try again.',
  please_restart_the_process: 'The sign-in expired or was started in another browser. Please try again.',
  invalid_code: 'The provider could not be reached or refused the sign-in. Please try again.',
}

/**
 * One button per configured provider. A click asks the server for the
 * provider's URL and the client sends the browser there; the provider
 * comes back through the server to `callbackURL`, or to this page with `?error=`.
 */
export function SocialButtons({ callbackURL, errorCallbackURL }: { callbackURL: string; errorCallbackURL: string }) {
  const providers = useSocialProviders()
  const action = useAction()
  if (!providers || providers.length === 0) return null
  return (
    <section aria-labelledby="social-heading" className="social">
      <h2 id="social-heading">Or continue with</h2>
      <div className="social-buttons">
        {providers.map((provider) => (
          <span key={provider.id}>
            <button
              type="button"
              disabled={action.pending}
              onClick={() => void action.run(() => client.signIn.social({ provider: provider.id, callbackURL, errorCallbackURL }))}
            >
              Continue with {provider.name}
            </button>{' '}
            <LastUsed methods={[provider.id]} />
          </span>
        ))}
      </div>
      <Status action={action} />
    </section>
  )
}

type AccountList = NonNullable<Awaited<ReturnType<typeof client.listAccounts>>['data']>

/** The profile's linked accounts: every sign-in method, a button to link each other provider, unlink. */
export function LinkedAccounts() {
  const providers = useSocialProviders()
  const [accounts, setAccounts] = useState<AccountList | null>(null)
  const load = useAction()
  const change = useAction()
  const refresh = () => load.run(() => client.listAccounts(), (result) => setAccounts(result.data ?? null))
  useEffect(() => {
    void refresh()
    // Loaded when the page opens; unlinking reloads it, linking comes back through a full page load.
  }, [])
  const nameOf = (id: string) => (id === 'credential' ? 'Email and password' : (providers?.find((entry) => entry.id === id)?.name ?? id))
  const linked = new Set((accounts ?? []).map((account) => account.provider))
  const unlinked = (providers ?? []).filter((provider) => !linked.has(provider.id))
  return (
    <section aria-labelledby="profile-accounts">
      <h2 id="profile-accounts">Linked accounts</h2>
      <Status action={load} />
      <ul className="cards">
        {(accounts ?? []).map((account) => (
          <li key={account.id}>
            <strong>{nameOf(account.provider)}</strong>{' '}
            <span className="muted">
              {account.provider === 'credential' ? '' : `${account.accountId} · `}linked {account.createdAt.toLocaleDateString()}
            </span>
            {(accounts ?? []).length > 1 ? (
              <button
                type="button"
                disabled={change.pending}
                aria-label={`Unlink ${nameOf(account.provider)}`}
                onClick={() =>
                  void change.run(
                    () => client.unlinkAccount({ providerId: account.provider, accountId: account.accountId }),
                    refresh,
                    `${nameOf(account.provider)} unlinked.`,
                  )
                }
              >
                Unlink
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {unlinked.map((provider) => (
        <button
          key={provider.id}
          type="button"
          disabled={change.pending}
          onClick={() =>
            void change.run(() => client.linkSocial({ provider: provider.id, callbackURL: '/profile', errorCallbackURL: '/profile' }))
          }
        >
          Link {provider.name}
        </button>
      ))}
      <Status action={change} />
    </section>
  )
}
