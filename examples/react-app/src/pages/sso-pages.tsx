/**
 * Enterprise single sign-on in the app (docs/sso.md): the `/sso` page the
 * sign-in page's "Sign in with SSO" link opens (a work email finds the
 * provider of its verified domain; when none serves it, the organization's
 * slug does), the words for an SSO
 * sign-in's `?error=<code>` (shown by the app shell), and the organization
 * section where owners and admins add an OpenID Connect or SAML provider,
 * prove its domain with a DNS TXT record, and delete it.
 */
import { useEffect, useState } from 'react'
import { fields, Status, Submit, useAction } from '../action.js'
import { client } from '../auth-client.js'
import { Link, useLocation } from '../router.js'

/** What the SSO callback's `?error=` codes mean to the person (docs/sso.md#sign-in-errors); the app shell shows them. */
export const SSO_ERRORS: Readonly<Record<string, string>> = {
  email_domain_mismatch: "Your organization's identity provider vouched for an address outside its domain.",
  domain_not_verified: "Your organization's domain is not verified yet: single sign-on opens once an admin verifies it.",
  account_not_linked: "An account with this email already exists: it can use single sign-on once the organization's domain is verified.",
  email_not_verified: 'Your identity provider has not verified your email address yet.',
  invalid_email: 'The identity provider did not share a usable email address.',
  two_factor_required: 'Your organization asks for your second factor, and this app cannot ask for it here: sign in with your password and code instead.',
  organization_membership_limit_reached: 'The organization is full: ask an admin to make room.',
  member_suspended: 'Your organization has suspended your access.',
  issuer_mismatch: 'The answer did not come from your organization\'s identity provider. Please try again.',
}

/** Where to go after signing in: a same-site path from ?next=, else home. */
function nextPath(query: URLSearchParams): string {
  const next = query.get('next') ?? '/'
  // Only paths on this site: "//evil.example" and "https://…" are not followed.
  return next.startsWith('/') && !next.startsWith('//') ? next : '/'
}

/**
 * "Sign in with SSO": the work email first; a 404 (no provider serves that
 * domain, or its domain is not verified yet) asks for the organization's slug.
 * Success sends the browser to the identity provider; it comes back through
 * the server to `?next=`, or to this page with `?error=`.
 */
export function SsoSignInPage() {
  const action = useAction()
  const { query } = useLocation()
  const [askSlug, setAskSlug] = useState(false)
  const callbackURL = nextPath(query)
  // A failed sign-in comes back here, with ?error= for the app shell to explain.
  const here = `/sso${query.has('next') ? `?next=${encodeURIComponent(callbackURL)}` : ''}`
  const start = async (target: { email: string } | { organizationSlug: string; email?: string }) => {
    const result = await client.signIn.sso({ ...target, callbackURL, errorCallbackURL: here })
    if (result.error?.code !== 'PROVIDER_NOT_FOUND') return result
    if ('organizationSlug' in target) return { error: { message: 'No single sign-on is set up for that organization.' } }
    setAskSlug(true)
    return { error: null }
  }
  return (
    <section>
      <h1>Sign in with SSO</h1>
      <p>Your organization's identity provider (Okta, Entra ID, Google Workspace…) signs you in.</p>
      <form
        aria-label="Sign in with SSO"
        onSubmit={(event) => {
          const { email = '', slug = '' } = fields(event)
          void action.run(() => start(askSlug ? { organizationSlug: slug, ...(email ? { email } : {}) } : { email }))
        }}
      >
        <label>
          Work email
          <input name="email" type="email" autoComplete="email" required={!askSlug} />
        </label>
        {askSlug ? (
          <>
            <p className="muted">No identity provider serves that address's domain yet. Enter your organization's slug instead.</p>
            <label>
              Organization slug
              <input name="slug" pattern="[a-z0-9-]+" title="lower-case letters, digits and hyphens" required autoFocus />
            </label>
          </>
        ) : null}
        <Submit action={action}>Continue</Submit>
        <Status action={action} />
      </form>
      <p>
        <Link to={`/sign-in${query.size ? `?${query}` : ''}`}>Other ways to sign in</Link>
      </p>
    </section>
  )
}

type Provider = NonNullable<Awaited<ReturnType<typeof client.sso.providers>>['data']>['providers'][number]

/** Where the server answers, as the browser reaches it: for the URLs an admin gives the IdP before registering. */
const authURL = (path: string) => `${window.location.origin}/api/auth${path}`

/** The SAML assertion consumer service of `providerId`, beside the SP metadata URL the server answered. */
function acsURL(provider: Provider): string {
  const metadata = new URL(provider.spMetadataUrl)
  return `${metadata.origin}${metadata.pathname.replace(/\/metadata$/, `/acs/${encodeURIComponent(provider.providerId)}`)}`
}

/** The active organization's providers, for its owners and admins (`sso` permission). */
export function SsoSettings({ organizationId }: { organizationId: string }) {
  const [providers, setProviders] = useState<Provider[] | null>(null)
  const load = useAction()
  const refresh = () =>
    load.run(
      () => client.sso.providers(),
      (result) => setProviders((result.data?.providers ?? []).filter((provider) => provider.organizationId === organizationId)),
    )
  useEffect(() => {
    void refresh()
    // Reloaded when another organization becomes active, and after each change below.
  }, [organizationId])
  return (
    <section aria-labelledby="sso-settings">
      <h3 id="sso-settings">Single sign-on</h3>
      <Status action={load} />
      {providers && providers.length === 0 ? <p className="muted">No identity provider yet.</p> : null}
      <ul className="cards">
        {(providers ?? []).map((provider) => (
          <ProviderCard key={provider.providerId} provider={provider} onChange={refresh} />
        ))}
      </ul>
      <AddOidcProvider organizationId={organizationId} onAdded={refresh} />
      <AddSamlProvider organizationId={organizationId} onAdded={refresh} />
    </section>
  )
}

function ProviderCard({ provider, onChange }: { provider: Provider; onChange: () => Promise<void> }) {
  const [token, setToken] = useState<string | null>(null)
  const act = useAction()
  const verify = useAction()
  return (
    <li aria-label={`Provider ${provider.providerId}`}>
      <strong>{provider.providerId}</strong> <span className="muted">{provider.type === 'oidc' ? 'OpenID Connect' : 'SAML'} · {provider.issuer}</span>
      <p>
        Domain {provider.domain}: {provider.domainVerified ? <strong>verified</strong> : <em>not verified</em>}
      </p>
      {provider.type === 'oidc' ? (
        <p>
          Redirect URI: <code>{provider.redirectURI}</code>
        </p>
      ) : (
        <>
          <p>
            SP metadata: <code>{provider.spMetadataUrl}</code>
          </p>
          <p>
            ACS URL: <code>{acsURL(provider)}</code>
          </p>
        </>
      )}
      {provider.domainVerified ? null : (
        <div>
          <button
            type="button"
            disabled={verify.pending}
            onClick={() =>
              void verify.run(
                () => client.sso.requestDomainVerification({ providerId: provider.providerId }),
                (result) => setToken(result.data?.domainVerificationToken ?? null),
              )
            }
          >
            Verify {provider.domain}
          </button>
          {token ? (
            <>
              <p>Publish this DNS TXT record, then check it:</p>
              <p>
                Name: <code data-testid="txt-name">_gatehouse-challenge.{provider.domain}</code>
                <br />
                Value: <code data-testid="txt-value">{token}</code>
              </p>
              <button
                type="button"
                disabled={verify.pending}
                onClick={() => void verify.run(() => client.sso.verifyDomain({ providerId: provider.providerId }), onChange, 'Domain verified.')}
              >
                Check the TXT record
              </button>
            </>
          ) : null}
          <Status action={verify} />
        </div>
      )}
      <button
        type="button"
        disabled={act.pending}
        aria-label={`Delete ${provider.providerId}`}
        onClick={() => void act.run(() => client.sso.deleteProvider({ providerId: provider.providerId }), onChange)}
      >
        Delete
      </button>
      <Status action={act} />
    </li>
  )
}

/** A provider id as the server takes it; the URLs for the IdP are shown while it is typed. */
const PROVIDER_ID = { pattern: '[a-z0-9][a-z0-9-]*', title: 'lower-case letters, digits and hyphens' } as const

/** The typed provider id as it appears in a URL, or a placeholder until there is one. */
const idInURL = (providerId: string) => (providerId ? encodeURIComponent(providerId) : '<provider-id>')

function AddOidcProvider({ organizationId, onAdded }: { organizationId: string; onAdded: () => Promise<void> }) {
  const action = useAction()
  const [providerId, setProviderId] = useState('')
  return (
    <form
      aria-labelledby="add-oidc"
      onSubmit={(event) => {
        const form = event.currentTarget
        const { issuer = '', clientId = '', clientSecret = '', domain = '' } = fields(event)
        void action.run(
          () => client.sso.register({ providerId, organizationId, issuer, domain, oidcConfig: { clientId, clientSecret } }),
          async () => {
            form.reset()
            setProviderId('')
            await onAdded()
          },
          `Added ${providerId}.`,
        )
      }}
    >
      <h4 id="add-oidc">Add an OpenID Connect provider</h4>
      <label>
        Provider ID
        <input name="providerId" value={providerId} onChange={(event) => setProviderId(event.target.value)} {...PROVIDER_ID} required />
      </label>
      <p>
        Redirect URI to give the IdP: <code data-testid="oidc-redirect-uri">{authURL(`/sso/callback/${idInURL(providerId)}`)}</code>
      </p>
      <label>
        Issuer
        <input name="issuer" type="url" placeholder="https://acme.okta.com" required />
      </label>
      <label>
        Client ID
        <input name="clientId" required />
      </label>
      <label>
        Client secret
        <input name="clientSecret" type="password" autoComplete="off" required />
      </label>
      <label>
        Email domain
        <input name="domain" placeholder="acme.com" required />
      </label>
      <Submit action={action}>Add OIDC provider</Submit>
      <Status action={action} />
    </form>
  )
}

function AddSamlProvider({ organizationId, onAdded }: { organizationId: string; onAdded: () => Promise<void> }) {
  const action = useAction()
  const [providerId, setProviderId] = useState('')
  const id = idInURL(providerId)
  return (
    <form
      aria-labelledby="add-saml"
      onSubmit={(event) => {
        const form = event.currentTarget
        const { entryPoint = '', cert = '', entityID = '', domain = '' } = fields(event)
        void action.run(
          () =>
            client.sso.register({ providerId, organizationId, issuer: entityID, domain, samlConfig: { entryPoint, cert, idpMetadata: { entityID } } }),
          async () => {
            form.reset()
            setProviderId('')
            await onAdded()
          },
          `Added ${providerId}.`,
        )
      }}
    >
      <h4 id="add-saml">Add a SAML provider</h4>
      <label>
        Provider ID
        <input name="providerId" value={providerId} onChange={(event) => setProviderId(event.target.value)} {...PROVIDER_ID} required />
      </label>
      <p>
        Give the IdP the SP metadata URL <code data-testid="saml-metadata-url">{authURL(`/sso/saml2/sp/metadata?providerId=${id}`)}</code>, or
        the ACS URL <code data-testid="saml-acs-url">{authURL(`/sso/saml2/sp/acs/${id}`)}</code> and the SP entity ID (the metadata URL).
      </p>
      <label>
        IdP entry point (single sign-on URL)
        <input name="entryPoint" type="url" required />
      </label>
      <label>
        IdP certificate
        <textarea name="cert" rows={4} placeholder="-----BEGIN CERTIFICATE-----" required />
      </label>
      <label>
        IdP entity ID
        <input name="entityID" required />
      </label>
      <label>
        Email domain
        <input name="domain" placeholder="acme.com" required />
      </label>
      <Submit action={action}>Add SAML provider</Submit>
      <Status action={action} />
    </form>
  )
}
