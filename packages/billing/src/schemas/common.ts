/**
 * @module
 * Building blocks of the billing schemas (docs/billing.md#events). The
 * platform speaks snake_case; every object schema here reads snake_case and
 * hands out camelCase, renaming only its own keys, so map-valued fields
 * (metadata, custom field data, file maps) keep the keys their owners chose.
 * Objects are loose: fields the platform adds later pass through instead of
 * failing the event. Enumerations are open for the same reason: the known
 * values are typed, a new value is kept as a string.
 */
import { z } from 'zod'
import { rememberInstant } from './instants.js'

/** `snake_case` → `camelCase`, as a type. */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S

/** One object's keys renamed to camelCase; nested objects are renamed by their own schemas. */
export type CamelKeys<T> = { [K in keyof T as K extends string ? CamelCase<K> : K]: T[K] }

/**
 * @example
 * camelCase('customer_external_id') // 'customerExternalId'
 */
export function camelCase(key: string): string {
  let renamed = renames.get(key)
  if (renamed === undefined) {
    renamed = key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())
    // Field names repeat in every payload; the bound only matters for keys that never repeat.
    if (renames.size < MAX_RENAMES) renames.set(key, renamed)
  }
  return renamed
}

const renames = new Map<string, string>()
const MAX_RENAMES = 4096

function camelKeys<T extends Record<string, unknown>>(value: T): CamelKeys<T> {
  const renamed: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) renamed[camelCase(key)] = field
  // The loop renames each key exactly as `CamelKeys` does at the type level.
  return renamed as CamelKeys<T>
}

/**
 * A platform object: snake_case in, camelCase out, unknown fields kept.
 *
 * @example
 * const address = entity({ country: z.string(), postal_code: z.string().nullish() })
 * address.parse({ country: 'FR', postal_code: '75001' }) // { country: 'FR', postalCode: '75001' }
 */
export function entity<const Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.looseObject(shape).transform((value) => camelKeys(value))
}

/**
 * An enumeration whose known values are typed and whose future values still parse.
 *
 * @example
 * const status = openEnum(['active', 'canceled']) // 'active' | 'canceled' | (string & {})
 */
export function openEnum<const Values extends readonly [string, ...string[]]>(values: Values): z.ZodType<Open<Values[number]>> {
  return z.union([z.enum(values), z.string() as z.ZodType<string & {}>])
}

/**
 * Marks the issue of a catch-all union branch (a benefit or price type this
 * version does not know) refusing a known type: error reports then show the
 * known branch's issues, which say what is wrong.
 */
export const FALLBACK = { fallback: true } as const

/**
 * Dates are ISO datetimes with an offset; handed out as `Date`. The
 * platform sends microseconds, which a `Date` cuts to milliseconds; each
 * parsed `Date` keeps the exact instant on the side (`microsecondsOf`), so
 * two changes made in the same millisecond are still ordered.
 */
export const datetime: z.ZodType<Date, string> = z.iso.datetime({ offset: true }).transform((value) => {
  const date = new Date(value)
  rememberInstant(date, value)
  return date
})

/** Amounts are whole integers in minor units (cents), never floats. */
export const amount: z.ZodType<number> = z.number().int()

/** Metadata: a map of string, number or boolean. */
export const metadata: z.ZodType<Metadata> = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))

/** Custom field data: text, integer, boolean, date (as sent, a string) or null. */
export const customFieldData: z.ZodType<CustomFieldData> = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))

/** A recurring interval (month and year; the platform also sends day and week). */
export const recurringInterval = openEnum(['month', 'year', 'day', 'week'])

/** An enumeration's known values, and any value the platform adds later. */
export type Open<Known extends string> = Known | (string & {})

export type Metadata = Record<string, string | number | boolean>
export type CustomFieldData = Record<string, string | number | boolean | null>

/** An address: every line optional and nullable, country required. */
export interface Address {
  [field: string]: unknown
  line1?: string | null
  line2?: string | null
  postalCode?: string | null
  city?: string | null
  state?: string | null
  country: string
}

/** An address: every line optional and nullable, country required. */
export const address: z.ZodType<Address> = entity({
  line1: z.string().nullish(),
  line2: z.string().nullish(),
  postal_code: z.string().nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
  country: z.string(),
})

/** Tax id formats (a selection is typed; the list is long and grows). */
export const taxIdFormat = openEnum([
  'ad_nrt', 'ae_trn', 'ar_cuit', 'au_abn', 'au_arn', 'bg_uic', 'bh_vat', 'bo_tin', 'br_cnpj', 'br_cpf', 'ca_bn',
  'ca_gst_hst', 'ca_pst_bc', 'ca_pst_mb', 'ca_pst_sk', 'ca_qst', 'ch_uid', 'ch_vat', 'cl_tin', 'cn_tin', 'co_nit',
  'cr_tin', 'de_stn', 'do_rcn', 'ec_ruc', 'eg_tin', 'es_cif', 'eu_oss_vat', 'eu_vat', 'gb_vat', 'ge_vat', 'hk_br',
  'hr_oib', 'hu_tin', 'id_npwp', 'il_vat', 'in_gst', 'is_vat', 'jp_cn', 'jp_rn', 'jp_trn', 'ke_pin', 'kr_brn',
  'kz_bin', 'li_uid', 'mx_rfc', 'my_frp', 'my_itn', 'my_sst', 'ng_tin', 'no_vat', 'no_voec', 'nz_gst', 'om_vat',
  'pe_ruc', 'ph_tin', 'ro_tin', 'rs_pib', 'ru_inn', 'ru_kpp', 'sa_vat', 'sg_gst', 'sg_uen', 'si_tin', 'sv_nit',
  'th_vat', 'tr_tin', 'tw_vat', 'ua_vat', 'us_ein', 'uy_ruc', 've_rif', 'vn_tin', 'za_vat',
])

/** A tax id is a nullable list of nullable values, typically `[value, format]`. */
export const taxId: z.ZodType<Array<string | null> | null> = z.array(z.union([taxIdFormat, z.null()])).nullable()
