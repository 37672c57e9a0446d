// The pages' only helper: a JSON call to the API on its own origin, with the
// session cookie (credentials: 'include'); errors come back as `{ code, message }`.
import { API } from '/config.js'

export async function call(method, path, body) {
  const response = await fetch(`${API}${path}`, {
    method,
    credentials: 'include',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const data = await response.json().catch(() => null)
  return { ok: response.ok, status: response.status, data }
}

// Wires a form to a call: its fields as the JSON body, errors shown in its alert.
export function submit(form, path, then) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    const alert = form.querySelector('[role=alert]')
    alert.textContent = ''
    const result = await call('POST', path, Object.fromEntries(new FormData(form)))
    if (result.ok) then(result.data)
    else alert.textContent = result.data?.message ?? `Request failed (${result.status})`
  })
}
