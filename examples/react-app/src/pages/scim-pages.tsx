/**
 * Directory sync in the app (docs/scim.md): the organization section where
 * owners and admins connect a SCIM 2.0 directory (Okta, Microsoft Entra ID).
 * It shows the base URL to give the directory, generates a bearer token per
 * provider id (shown once: the server keeps only its hash; generating again
 * for the same provider id replaces the old token at once), lists the
 * organization's tokens by their first characters with when they were made
 * and last used, and revokes one.
 */
import { useEffect, useState } from 'react'
import { Status, Submit, useAction } from '../action.js'
import { client } from '../auth-client.js'

type Token = NonNullable<Awaited<ReturnType<typeof client.scim.listTokens>>['data']>['tokens'][number]

/** The SCIM base URL as the browser reaches the server: what the directory is given (docs/scim.md#set-up). */
const scimBaseURL = () => `${window.location.origin}/api/auth/scim/v2`

/** A provider id as the server takes it (generate-token's body). */
const PROVIDER_ID = { pattern: '[A-Za-z0-9._\\-]{1,64}', title: 'letters, digits, ".", "_" and "-", at most 64' } as const

const when = (date: Date | null) => (date ? date.toLocaleString() : 'never')

/** The organization's SCIM tokens, for its owners and admins (the member and team powers a token holds). */
export function ScimSettings({ organizationId }: { organizationId: string }) {
  const [tokens, setTokens] = useState<Token[] | null>(null)
  const [providerId, setProviderId] = useState('default')
  // The token just generated: the only time it can be shown.
  const [fresh, setFresh] = useState<{ providerId: string; scimToken: string } | null>(null)
  const load = useAction()
  const generate = useAction()
  const refresh = () => load.run(() => client.scim.listTokens({ organizationId }), (result) => setTokens(result.data?.tokens ?? []))
  useEffect(() => {
    setFresh(null)
    void refresh()
    // Reloaded when another organization becomes active, and after each change below.
  }, [organizationId])
  const replaces = tokens?.find((token) => token.providerId === providerId)
  return (
    <section aria-labelledby="scim-settings">
      <h3 id="scim-settings">Directory sync (SCIM)</h3>
      <p>
        Okta, Microsoft Entra ID or another SCIM 2.0 directory adds, updates, suspends and removes this organization's members, and manages its
        teams as groups. Give it this base URL, with a token below as its bearer token (HTTP header authentication):
      </p>
      <p>
        SCIM base URL: <code data-testid="scim-base-url">{scimBaseURL()}</code>
      </p>
      <Status action={load} />
      {tokens && tokens.length === 0 ? <p className="muted">No token yet: no directory can reach this organization.</p> : null}
      {tokens && tokens.length > 0 ? (
        <table aria-label="SCIM tokens">
          <thead>
            <tr>
              <th>Provider ID</th>
              <th>Token</th>
              <th>Created</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <TokenRow
                key={token.id}
                token={token}
                onRevoked={async () => {
                  // A revoked token is no use to copy any more.
                  if (fresh?.providerId === token.providerId) setFresh(null)
                  await refresh()
                }}
              />
            ))}
          </tbody>
        </table>
      ) : null}

      {fresh ? (
        <div className="warning" aria-live="polite">
          <p>
            <strong>Copy the token for {fresh.providerId} now:</strong> it is shown only this once. Paste it into the directory as its bearer token
            (Okta's "Bearer", Entra ID's "Secret Token").
          </p>
          <p>
            <code data-testid="scim-token">{fresh.scimToken}</code>
          </p>
          <button type="button" onClick={() => setFresh(null)}>
            Done, hide it
          </button>
        </div>
      ) : null}

      <form
        aria-labelledby="generate-scim-token"
        onSubmit={(event) => {
          event.preventDefault()
          const id = providerId
          void generate.run(
            () => client.scim.generateToken({ organizationId, providerId: id }),
            async (result) => {
              if (result.data) setFresh({ providerId: result.data.providerId, scimToken: result.data.scimToken })
              await refresh()
            },
          )
        }}
      >
        <h4 id="generate-scim-token">Generate a token</h4>
        <label>
          Provider ID
          <input name="providerId" value={providerId} onChange={(event) => setProviderId(event.target.value)} {...PROVIDER_ID} required />
        </label>
        <p className="muted">One token per directory: name each one (okta, entra, staging) to keep them apart.</p>
        {replaces ? (
          <p className="warning" data-testid="scim-replace-warning">
            <strong>{providerId} already has a token</strong> (<code>{replaces.start}…</code>). Generating a new one replaces it at once: the
            directory holding the old token stops syncing until it is given the new one.
          </p>
        ) : (
          <p className="muted">Generating again for a provider ID that has a token replaces that token at once.</p>
        )}
        <Submit action={generate}>{replaces ? `Replace the token of ${providerId}` : 'Generate token'}</Submit>
        <Status action={generate} />
      </form>
    </section>
  )
}

function TokenRow({ token, onRevoked }: { token: Token; onRevoked: () => Promise<void> }) {
  const revoke = useAction()
  return (
    <tr>
      <td>{token.providerId}</td>
      <td>
        <code>{token.start}…</code>
        {token.expiresAt ? <span className="muted"> expires {when(token.expiresAt)}</span> : null}
      </td>
      <td>{when(token.createdAt)}</td>
      <td>{when(token.lastUsedAt)}</td>
      <td>
        <button
          type="button"
          disabled={revoke.pending}
          aria-label={`Revoke the token of ${token.providerId}`}
          onClick={() => void revoke.run(() => client.scim.revokeToken({ tokenId: token.id }), onRevoked)}
        >
          Revoke
        </button>
        <Status action={revoke} />
      </td>
    </tr>
  )
}
