/** The adapter conformance suite on the Drizzle adapter over node-postgres, when GATEHOUSE_TEST_POSTGRES_URL is set. */
import { describe } from 'vitest'
import { drizzleConformance } from './conformance.js'
import { dialects } from './databases.js'

const postgres = dialects.find(({ dialect }) => dialect === 'postgres')

describe.skipIf(!postgres?.enabled)('drizzle on postgres', () => {
  drizzleConformance('postgres')
})
