/** The adapter conformance suite on the Drizzle adapter over better-sqlite3. */
import { describe } from 'vitest'
import { drizzleConformance } from './conformance.js'
import { dialects } from './databases.js'

const sqlite = dialects.find(({ dialect }) => dialect === 'sqlite')

describe.skipIf(!sqlite?.enabled)('drizzle on sqlite', () => {
  drizzleConformance('sqlite')
})
