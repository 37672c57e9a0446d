/**
 * @module
 * Reading the mirror: the customer state (docs/billing.md#the-customer-state) and the
 * paginated lists, newest first. The state is built from the mirror's rows,
 * which every event keeps current — a `customer.state_changed` replaces
 * them (mirror/customer-state.ts), the per-entity events update them — so
 * an application that subscribes to either kind gets the same answer.
 */
import type { Row, Store } from '@gatehouse/core'
import {
  fromRow,
  type BillingBenefitGrant,
  type BillingCustomer,
  type BillingCustomerMeter,
  type BillingOrder,
  type BillingSubscription,
  type CustomerState,
} from './shapes.js'

/**
 * @example
 * const state = customer ? await customerState(db, customer) : null
 */
export async function customerState(db: Store, customer: BillingCustomer): Promise<CustomerState> {
  const byCustomer = { field: 'customerId', value: customer.id } as const
  const oldestFirst = { field: 'createdAt', direction: 'asc' } as const
  const [subscriptions, grants, meters] = await Promise.all([
    db.findMany<Row>({ model: 'billingSubscription', where: [byCustomer, { field: 'active', value: true }], sortBy: oldestFirst }),
    db.findMany<Row>({ model: 'billingBenefitGrant', where: [byCustomer, { field: 'isGranted', value: true }], sortBy: oldestFirst }),
    db.findMany<Row>({ model: 'billingCustomerMeter', where: [byCustomer, { field: 'active', value: true }], sortBy: oldestFirst }),
  ])
  const { platformOrganizationId, ...fields } = customer
  return {
    ...fields,
    organizationId: platformOrganizationId,
    activeSubscriptions: subscriptions.map((row) => {
      const s = fromRow<BillingSubscription>(row)
      return {
        id: s.id,
        createdAt: s.createdAt,
        modifiedAt: s.modifiedAt,
        customFieldData: s.customFieldData,
        metadata: s.metadata,
        status: s.status,
        amount: s.amount,
        currency: s.currency,
        recurringInterval: s.recurringInterval,
        currentPeriodStart: s.currentPeriodStart,
        currentPeriodEnd: s.currentPeriodEnd,
        cancelAtPeriodEnd: s.cancelAtPeriodEnd,
        canceledAt: s.canceledAt,
        startedAt: s.startedAt,
        endsAt: s.endsAt,
        productId: s.productId,
        discountId: s.discountId,
        meters: s.meters,
      }
    }),
    grantedBenefits: grants.map((row) => {
      const g = fromRow<BillingBenefitGrant>(row)
      return {
        id: g.id,
        createdAt: g.createdAt,
        modifiedAt: g.modifiedAt,
        grantedAt: g.grantedAt,
        benefitId: g.benefitId,
        benefitType: g.benefitType,
        benefitMetadata: g.benefitMetadata,
        properties: g.properties,
      }
    }),
    activeMeters: meters.map((row) => {
      const m = fromRow<BillingCustomerMeter>(row)
      return {
        id: m.id,
        createdAt: m.createdAt,
        modifiedAt: m.modifiedAt,
        meterId: m.meterId,
        consumedUnits: m.consumedUnits,
        creditedUnits: m.creditedUnits,
        balance: m.balance,
      }
    }),
  }
}

export interface Page<T> {
  readonly items: T[]
  readonly total: number
}

export interface PageRequest {
  readonly limit: number
  readonly offset: number
}

const listed = {
  subscriptions: 'billingSubscription',
  orders: 'billingOrder',
  benefits: 'billingBenefitGrant',
} as const

export interface ListItem {
  subscriptions: BillingSubscription
  orders: BillingOrder
  benefits: BillingBenefitGrant
}

/**
 * One page of a customer's subscriptions, orders or benefit grants, newest first, and the total.
 *
 * @example
 * const { items, total } = await listFor(db, 'orders', customer?.id ?? null, { limit: 10, offset: 0 })
 */
export async function listFor<K extends keyof ListItem>(db: Store, kind: K, customerId: string | null, page: PageRequest): Promise<Page<ListItem[K]>> {
  if (customerId === null) return { items: [], total: 0 }
  const model = listed[kind]
  const where = { field: 'customerId', value: customerId } as const
  const [rows, total] = await Promise.all([
    db.findMany<Row>({
      model,
      where,
      sortBy: [
        { field: 'createdAt', direction: 'desc' },
        { field: 'id', direction: 'asc' },
      ],
      limit: page.limit,
      offset: page.offset,
    }),
    db.count({ model, where }),
  ])
  return { items: rows.map((row) => fromRow<ListItem[K]>(row)), total }
}
