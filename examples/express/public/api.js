// The pages' only helper: a JSON call to the server, which answers `{ code, message }` on errors.
export async function call(method, path, body) {
  const response = await fetch(path, {
    method,
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
