/**
 * The Prisma Clients the global setup (clients.setup.ts) generates, one per
 * dialect and schema, and where it writes them.
 */
import { join, resolve } from 'node:path'
import type { Schema } from '@gatehouse/core'
import { mergeSchemas } from '../../core/src/db/schema.js'
import { conformanceSchema, namedConformanceSchema } from '../../core/src/testing/conformance/fixtures.js'
import { organization } from '../../organization/src/index.js'

export type TestDialect = 'sqlite' | 'postgres' | 'mysql'

export const GENERATED = resolve(__dirname, '.generated')

/**
 * `default`: the conformance suite's models plus every model of the organization plugin (teams and roles too),
 * under their own names (the end-to-end test uses a part of them);
 * `named`: the conformance models with plural snake_case tables and renamed ids.
 */
export const TEST_SCHEMAS = {
  default: mergeSchemas(conformanceSchema, organization({ teams: { enabled: true }, dynamicAccessControl: { enabled: true } }).schema),
  named: namedConformanceSchema,
} as const satisfies Record<string, Schema>

export type TestSchemaName = keyof typeof TEST_SCHEMAS

/** The folder holding one generated client; its entry is `client.ts`. */
export function clientDir(dialect: TestDialect, schema: TestSchemaName): string {
  return join(GENERATED, `${dialect}-${schema}`, 'client')
}
