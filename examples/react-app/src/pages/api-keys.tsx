/**
 * API keys (docs/api-key.md): the security page's section where a user makes
 * keys for scripts and other programs that act as them. A new key is shown
 * once, with a copy button: the server keeps only its hash, so it can never
 * be shown again. The list shows each key by its first characters, with when
 * it expires and was last used; revoking deletes it, and the next request
 * carrying it is refused. A key never changes the account's credentials
 * (password, email, second factor, passkeys, other keys), so a leaked key
 * cannot lock its owner out.
 */
import { useEffect, useState } from 'react'
import { fields, Status, Submit, useAction } from '../action.js'
import { client } from '../auth-client.js'

type ApiKey = NonNullable<Awaited<ReturnType<typeof client.apiKey.list>>['data']>['apiKeys'][number]

const DAY = 86_400
/** The choices of the form, in seconds; "never" sends no expiry. */
const EXPIRIES = [
  { label: '7 days', seconds: 7 * DAY },
  { label: '30 days', seconds: 30 * DAY },
  { label: '90 days', seconds: 90 * DAY },
  { label: '1 year', seconds: 365 * DAY },
  { label: 'Never', seconds: 0 },
] as const

const when = (date: Date | string | null | undefined) => (date ? new Date(date).toLocaleString() : 'never')

export function ApiKeySection() {
  const [keys, setKeys] = useState<ApiKey[] | null>(null)
  // The key just created: the only time its full value exists outside the caller.
  const [fresh, setFresh] = useState<{ name: string; key: string } | null>(null)
  const [copied, setCopied] = useState(false)
  const load = useAction()
  const create = useAction()
  const refresh = () => load.run(() => client.apiKey.list(), (result) => setKeys(result.data?.apiKeys ?? []))
  useEffect(() => {
    void refresh()
  }, [])
  return (
    <section aria-labelledby="api-keys">
      <h2 id="api-keys">API keys</h2>
      <p>
        A key lets a script or another program call this app as you: send it in the <code>x-api-key</code> header. It cannot change your
        password, email, second factor, passkeys or keys.
      </p>
      <Status action={load} />
      {keys && keys.length === 0 ? <p className="muted">No API keys.</p> : null}
      {keys && keys.length > 0 ? (
        <table aria-label="API keys">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Expires</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <KeyRow
                key={key.id}
                apiKey={key}
                onRevoked={async () => {
                  setFresh(null)
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
            <strong>Copy the key {fresh.name} now:</strong> it is shown only this once.
          </p>
          <p>
            <code data-testid="api-key-value">{fresh.key}</code>{' '}
            <button
              type="button"
              onClick={() =>
                void navigator.clipboard.writeText(fresh.key).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </p>
          <button
            type="button"
            onClick={() => {
              setFresh(null)
              setCopied(false)
            }}
          >
            Done, hide it
          </button>
        </div>
      ) : null}

      <form
        aria-labelledby="create-api-key"
        onSubmit={(event) => {
          const { name = '', expiresIn = '0' } = fields(event)
          const seconds = Number(expiresIn)
          const form = event.currentTarget
          void create.run(
            () => client.apiKey.create({ name, ...(seconds > 0 ? { expiresIn: seconds } : {}) }),
            async (result) => {
              if (result.data) {
                setFresh({ name: result.data.name ?? name, key: result.data.key })
                setCopied(false)
              }
              form.reset()
              await refresh()
            },
          )
        }}
      >
        <h3 id="create-api-key">Create a key</h3>
        <label>
          Name
          <input name="name" required maxLength={32} placeholder="deploy script" />
        </label>
        <label>
          Expires after
          <select name="expiresIn" defaultValue={String(90 * DAY)}>
            {EXPIRIES.map((choice) => (
              <option key={choice.label} value={String(choice.seconds)}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        <Submit action={create}>Create key</Submit>
        <Status action={create} />
      </form>
    </section>
  )
}

function KeyRow({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: () => Promise<void> }) {
  const revoke = useAction()
  const label = apiKey.name ?? apiKey.start ?? apiKey.id
  return (
    <tr>
      <td>{apiKey.name ?? <span className="muted">unnamed</span>}</td>
      <td>
        <code>{apiKey.start ?? apiKey.prefix ?? ''}…</code>
        {apiKey.enabled === false ? <span className="muted"> disabled</span> : null}
      </td>
      <td>{when(apiKey.expiresAt)}</td>
      <td>{when(apiKey.lastRequest)}</td>
      <td>
        <button
          type="button"
          disabled={revoke.pending}
          aria-label={`Revoke the key ${label}`}
          onClick={() => void revoke.run(() => client.apiKey.delete({ keyId: apiKey.id }), onRevoked)}
        >
          Revoke
        </button>
        <Status action={revoke} />
      </td>
    </tr>
  )
}
