/**
 * @module
 * The few statements Prisma Client cannot express, as raw SQL through
 * `$queryRawUnsafe` with bound parameters: identifiers quoted for the
 * provider, values always parameters.
 */
import type { PrismaProvider } from './client.js'

/** `"name"` (`` `name` `` on MySQL), with the quote character doubled inside. */
export function quote(provider: PrismaProvider, name: string): string {
  const mark = provider === 'mysql' ? '`' : '"'
  return mark + name.split(mark).join(mark + mark) + mark
}

/** A table name, each part quoted: `"app"."notes"`. */
export function quoteTable(provider: PrismaProvider, table: readonly string[]): string {
  return table.map((part) => quote(provider, part)).join('.')
}

/** Collects the values of one statement and writes their placeholders: `$1`, `$2` on PostgreSQL, `?` elsewhere. */
export interface Parameters {
  readonly values: unknown[]
  add(value: unknown): string
}

export function parameters(provider: PrismaProvider): Parameters {
  const values: unknown[] = []
  return {
    values,
    add(value) {
      values.push(value)
      return provider === 'postgresql' ? `$${values.length}` : '?'
    },
  }
}
