/** The adapter conformance suite on the Drizzle adapter over postgres-js, when GATEHOUSE_TEST_POSTGRES_URL is set. */
import { describe } from 'vitest'
import { drizzleConformance } from './conformance.js'
import { drivers } from './databases.js'

const postgresJs = drivers.find(({ driver }) => driver === 'postgres-js')

describe.skipIf(!postgresJs?.enabled)('drizzle on postgres-js', () => {
  drizzleConformance('postgres', 'postgres-js')
})
