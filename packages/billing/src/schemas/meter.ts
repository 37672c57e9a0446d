/**
 * @module
 * Meters and subscription meters: what usage is counted, as a filter of
 * clauses that may nest, and how it is aggregated. The aggregation function
 * defaults to count.
 */
import { z } from 'zod'
import { amount, datetime, entity, metadata, openEnum, type Metadata, type Open } from './common.js'

export type FilterOperator = Open<'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'not_like'>

export const filterOperator: z.ZodType<FilterOperator> = openEnum(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'])

export interface MeterClause {
  [field: string]: unknown
  property: string
  operator: FilterOperator
  value: string | number | boolean
}

/** sum, max, min and avg name a property; count does not. */
export type MeterAggregation =
  | { [field: string]: unknown; func: 'sum' | 'max' | 'min' | 'avg'; property: string }
  | { [field: string]: unknown; func: 'count' }
  | { [field: string]: unknown; func: string & {}; property?: string }

export interface Meter {
  [field: string]: unknown
  id: string
  name: string
  metadata: Metadata
  createdAt: Date
  modifiedAt: Date | null
  filter: MeterFilter
  aggregation: MeterAggregation
  organizationId: string
}

export interface SubscriptionMeter {
  [field: string]: unknown
  id: string
  createdAt: Date
  modifiedAt: Date | null
  consumedUnits: number
  creditedUnits: number
  amount: number
  meterId: string
  meter: Meter
}

const clauseSchema: z.ZodType<MeterClause> = entity({
  property: z.string(),
  operator: filterOperator,
  value: z.union([z.string(), z.number().int(), z.boolean()]),
})

export interface MeterFilter {
  [field: string]: unknown
  conjunction: 'and' | 'or' | (string & {})
  clauses: Array<MeterFilter | MeterClause>
}

/**
 * A filter: a conjunction and clauses, each a condition or a nested filter.
 *
 * @example
 * meterFilterSchema.parse({ conjunction: 'and', clauses: [{ property: 'model', operator: 'eq', value: 'gpt' }] })
 */
export const meterFilterSchema: z.ZodType<MeterFilter> = z.lazy(() =>
  entity({
    conjunction: openEnum(['and', 'or']),
    clauses: z.array(z.union([clauseSchema, meterFilterSchema])),
  }),
)

/** sum, max, min and avg name a property; count does not (and is the default). */
export const meterAggregationSchema: z.ZodType<MeterAggregation> = z.union([
  entity({ func: z.enum(['sum', 'max', 'min', 'avg']), property: z.string() }),
  entity({ func: z.literal('count').default('count') }),
  entity({ func: z.string(), property: z.string().optional() }),
])

export const meterSchema: z.ZodType<Meter> = entity({
  id: z.string(),
  name: z.string(),
  metadata,
  created_at: datetime,
  modified_at: datetime.nullable(),
  filter: meterFilterSchema,
  aggregation: meterAggregationSchema,
  organization_id: z.string(),
})

/** A subscription's usage of one meter, with the meter itself. */
export const subscriptionMeterSchema: z.ZodType<SubscriptionMeter> = entity({
  id: z.string(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  consumed_units: z.number(),
  credited_units: z.number().int(),
  amount,
  meter_id: z.string(),
  meter: meterSchema,
})
