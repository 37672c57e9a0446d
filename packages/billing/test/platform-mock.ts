/**
 * A loopback stand-in for the billing platform's API, for the package tests
 * and the browser test (examples/e2e imports this file by relative path).
 * It checks every request body against the SDK's own request schemas: the
 * body, read back to the SDK's input shape, must come out of the SDK's
 * `$outboundSchema` exactly as sent (an unknown or mistyped field fails). It
 * answers with bodies its SDK's `$inboundSchema` accepts (checked before
 * sending). State: customers by external id (unique, like the platform),
 * checkouts, portal sessions, ingested events (deduplicated by external id).
 *
 * `mode` makes it fail: `error` answers 500, `hang` never answers; `close()`
 * makes it unreachable. `refuseEvents` makes it refuse some usage events as
 * the platform refuses content it validates: a 422 for the whole call,
 * nothing kept, its `detail` naming each refused event's position
 * (`loc: ['body', 'events', i, ...]`) unless `refusalNamesEvents` is false.
 */
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CheckoutCreate$outboundSchema } from '@polar-sh/sdk/models/components/checkoutcreate.js'
import { Checkout$inboundSchema } from '@polar-sh/sdk/models/components/checkout.js'
import { Customer$inboundSchema } from '@polar-sh/sdk/models/components/customer.js'
import { CustomerCreate$outboundSchema } from '@polar-sh/sdk/models/components/customercreate.js'
import { CustomerSession$inboundSchema } from '@polar-sh/sdk/models/components/customersession.js'
import { CustomerSessionCustomerExternalIDCreate$outboundSchema } from '@polar-sh/sdk/models/components/customersessioncustomerexternalidcreate.js'
import { CustomerUpdateExternalID$outboundSchema } from '@polar-sh/sdk/models/components/customerupdateexternalid.js'
import { EventsIngest$outboundSchema } from '@polar-sh/sdk/models/components/eventsingest.js'
import { EventsIngestResponse$inboundSchema } from '@polar-sh/sdk/models/components/eventsingestresponse.js'
import { ValidationError$inboundSchema } from '@polar-sh/sdk/models/components/validationerror.js'
import { checkout as checkoutPayload } from './fixtures/payloads.js'

type Json = Record<string, any>
interface Schema {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown }
}

export const MOCK_TOKEN = 'polar_oat_mock-token-7f3c9a1e5b'
const ORGANIZATION_ID = '8f2b6d0e-4a1c-4e5f-9b7d-1c3e5a7b9d0f'

/** Map keys (metadata) keep their owners' spelling; every other key is read back to the SDK's camelCase. */
const MAPS = new Set(['metadata', 'customer_metadata', 'custom_field_data'])
function toInput(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => toInput(item))
  if (typeof value === 'string' && key === 'timestamp') return new Date(value)
  if (typeof value !== 'object' || value === null) return value
  if (MAPS.has(key)) return value
  return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), toInput(inner, name)]))
}

/** JSON with object keys sorted: the order of keys is not part of a body's meaning. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b))) : inner,
  )
}

/** The wire body is what the SDK sends for some valid input, or the issue. */
function checkRequest(schema: Schema, body: unknown): string | null {
  const parsed = schema.safeParse(toInput(body))
  if (!parsed.success) return `request schema: ${String(parsed.error)}`
  const again = canonical(parsed.data)
  return again === canonical(body) ? null : `request does not round-trip: sent ${JSON.stringify(body)}, schema gives ${again}`
}

function iso(date = new Date()): string {
  return date.toISOString()
}

export interface PlatformMock {
  readonly url: string
  /** Customers by external id. */
  readonly customers: Map<string, Json>
  readonly checkouts: Json[]
  readonly sessions: Json[]
  /** One entry per events.ingest call, with the events as sent. */
  readonly ingestCalls: Json[][]
  /** Events kept, by external id (duplicates skipped, as the platform does). */
  readonly events: Map<string, Json>
  /** Every request: method, path, and whether it carried the right token. */
  readonly requests: Array<{ method: string; path: string; authorized: boolean }>
  /** Bodies that failed the SDK's request schemas. */
  readonly invalid: string[]
  mode: 'ok' | 'error' | 'hang'
  /** Usage events the platform refuses; null: none. */
  refuseEvents: ((event: Json) => boolean) | null
  /** Whether a refusal names the refused events' positions. Default true. */
  refusalNamesEvents: boolean
  close(): Promise<void>
}

/**
 * @example
 * const mock = await startPlatformMock()
 * billing({ platform: { accessToken: MOCK_TOKEN, serverURL: mock.url }, ... })
 */
export async function startPlatformMock(options: { port?: number } = {}): Promise<PlatformMock> {
  const hanging = new Set<ServerResponse>()
  const state: Omit<PlatformMock, 'url' | 'close'> = {
    customers: new Map(),
    checkouts: [],
    sessions: [],
    ingestCalls: [],
    events: new Map(),
    requests: [],
    invalid: [],
    mode: 'ok',
    refuseEvents: null,
    refusalNamesEvents: true,
  }
  let base = ''

  const send = (response: ServerResponse, status: number, body: unknown, schema?: Schema) => {
    if (schema && !schema.safeParse(body).success) throw new Error(`the mock's own ${status} body fails the SDK schema: ${JSON.stringify(body)}`)
    response.writeHead(status, { 'content-type': 'application/json' }).end(body === undefined ? undefined : JSON.stringify(body))
  }
  // The SDK's HTTPValidationError is built from `detail`, a list of ValidationError.
  const conflict = (response: ServerResponse, field: string, msg: string) => {
    const detail = [{ loc: ['body', field], msg, type: 'value_error' }]
    const valid = detail.every((item) => ValidationError$inboundSchema.safeParse(item).success)
    send(response, 422, { detail }, { safeParse: () => ({ success: valid }) })
  }
  const refuse = (response: ServerResponse, positions: readonly number[]) => {
    const detail = state.refusalNamesEvents
      ? positions.map((position) => ({ loc: ['body', 'events', position, 'metadata'], msg: 'Event refused', type: 'value_error' }))
      : [{ loc: ['body'], msg: 'Event refused', type: 'value_error' }]
    const valid = detail.every((item) => ValidationError$inboundSchema.safeParse(item).success)
    send(response, 422, { detail }, { safeParse: () => ({ success: valid }) })
  }
  const notFound = (response: ServerResponse) => send(response, 404, { error: 'ResourceNotFound', detail: 'Not found' })

  const customerBody = (input: Json, id = randomUUID()): Json => ({
    id,
    created_at: iso(),
    modified_at: null,
    metadata: input.metadata ?? {},
    external_id: input.external_id ?? null,
    email: input.email,
    email_verified: false,
    type: 'individual',
    name: input.name ?? null,
    billing_name: null,
    billing_address: null,
    tax_id: null,
    locale: null,
    organization_id: ORGANIZATION_ID,
    deleted_at: null,
    avatar_url: null,
  })

  // The fixture's wire shape (fixtures/payloads.ts) with what this checkout was asked for; no product details, the mock has no catalogue.
  const checkoutBody = (input: Json): Json => {
    const secret = `polar_c_${randomUUID().replaceAll('-', '')}`
    return checkoutPayload({
      id: randomUUID(),
      created_at: iso(),
      client_secret: secret,
      url: `${base}/checkout/${secret}`,
      expires_at: iso(new Date(Date.now() + 3_600_000)),
      success_url: input.success_url ?? `${base}/checkout/done`,
      organization_id: ORGANIZATION_ID,
      product_id: input.products[0],
      product_price_id: null,
      customer_name: input.customer_name ?? null,
      customer_email: input.customer_email ?? null,
      metadata: input.metadata ?? {},
      external_customer_id: input.external_customer_id ?? null,
      customer_external_id: input.external_customer_id ?? null,
      products: [],
      product: null,
      product_price: null,
      prices: null,
      attached_custom_fields: null,
    })
  }

  const handle = (request: IncomingMessage, response: ServerResponse, text: string) => {
    const url = new URL(request.url ?? '/', base)
    const method = request.method ?? 'GET'
    const authorized = request.headers.authorization === `Bearer ${MOCK_TOKEN}`
    state.requests.push({ method, path: url.pathname, authorized })
    if (method === 'GET' && url.pathname.startsWith('/checkout/')) {
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Mock checkout</title><h1>Mock checkout</h1><p id="checkout">${url.pathname.slice(10)}</p>`)
      return
    }
    if (method === 'GET' && url.pathname.startsWith('/portal/')) {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Mock customer portal</title><h1>Mock customer portal</h1>')
      return
    }
    if (state.mode === 'hang') {
      hanging.add(response)
      return
    }
    if (state.mode === 'error') return send(response, 500, { error: 'InternalServerError', detail: 'mock failure' })
    if (!authorized) return send(response, 401, { error: 'Unauthorized', detail: 'Invalid token' })
    const body = text === '' ? undefined : JSON.parse(text)
    const check = (schema: Schema) => {
      const problem = checkRequest(schema, body)
      if (problem) state.invalid.push(`${method} ${url.pathname}: ${problem}`)
      return problem === null
    }
    const external = /^\/v1\/customers\/external\/([^/]+)$/.exec(url.pathname)
    if (method === 'POST' && url.pathname === '/v1/customers/') {
      if (!check(CustomerCreate$outboundSchema)) return send(response, 422, { detail: [] })
      if (body.external_id && state.customers.has(body.external_id)) return conflict(response, 'external_id', 'A customer with this external ID already exists.')
      if ([...state.customers.values()].some((customer) => customer.email === body.email)) return conflict(response, 'email', 'A customer with this email address already exists.')
      const created = customerBody(body)
      state.customers.set(body.external_id, created)
      return send(response, 201, created, Customer$inboundSchema)
    }
    if (external) {
      const externalId = decodeURIComponent(external[1] as string)
      const found = state.customers.get(externalId)
      if (!found) return notFound(response)
      if (method === 'PATCH') {
        if (!check(CustomerUpdateExternalID$outboundSchema)) return send(response, 422, { detail: [] })
        const updated = { ...found, ...Object.fromEntries(Object.entries(body).filter(([key]) => key === 'email' || key === 'name')), modified_at: iso() }
        state.customers.set(externalId, updated)
        return send(response, 200, updated, Customer$inboundSchema)
      }
      if (method === 'DELETE') {
        state.customers.delete(externalId)
        return send(response, 204, undefined)
      }
      return send(response, 200, found, Customer$inboundSchema)
    }
    if (method === 'POST' && url.pathname === '/v1/checkouts/') {
      if (!check(CheckoutCreate$outboundSchema)) return send(response, 422, { detail: [] })
      const checkout = checkoutBody(body)
      state.checkouts.push(checkout)
      return send(response, 201, checkout, Checkout$inboundSchema)
    }
    if (method === 'POST' && url.pathname === '/v1/customer-sessions/') {
      if (!check(CustomerSessionCustomerExternalIDCreate$outboundSchema)) return send(response, 422, { detail: [] })
      const customer = state.customers.get(body.external_customer_id)
      if (!customer) return notFound(response)
      const token = `polar_cst_${randomUUID().replaceAll('-', '')}`
      const session = {
        created_at: iso(),
        modified_at: null,
        id: randomUUID(),
        token,
        expires_at: iso(new Date(Date.now() + 3_600_000)),
        return_url: null,
        customer_portal_url: `${base}/portal/${token}`,
        customer_id: customer.id,
        customer,
      }
      state.sessions.push(session)
      return send(response, 201, session, CustomerSession$inboundSchema)
    }
    if (method === 'POST' && url.pathname === '/v1/events/ingest') {
      if (!check(EventsIngest$outboundSchema)) return send(response, 422, { detail: [] })
      const refused = (body.events as Json[]).flatMap((event, position) => (state.refuseEvents?.(event) ? [position] : []))
      if (refused.length > 0) return refuse(response, refused)
      state.ingestCalls.push(body.events)
      let inserted = 0
      for (const event of body.events as Json[]) {
        if (event.external_id && state.events.has(event.external_id)) continue
        state.events.set(event.external_id ?? randomUUID(), event)
        inserted += 1
      }
      return send(response, 200, { inserted, duplicates: body.events.length - inserted }, EventsIngestResponse$inboundSchema)
    }
    return notFound(response)
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      try {
        handle(request, response, Buffer.concat(chunks).toString('utf8'))
      } catch (error) {
        state.invalid.push(String(error))
        if (!response.headersSent) response.writeHead(500).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return Object.assign(state, {
    url: base,
    async close() {
      for (const response of hanging) response.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  })
}
