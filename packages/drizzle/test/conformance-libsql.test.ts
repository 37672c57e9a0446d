/** The adapter conformance suite on the Drizzle adapter over libsql (`@libsql/client` on a local `file:` database). */
import { describe } from 'vitest'
import { drizzleConformance } from './conformance.js'
import { drivers } from './databases.js'

const libsql = drivers.find(({ driver }) => driver === 'libsql')

describe.skipIf(!libsql?.enabled)('drizzle on libsql', () => {
  drizzleConformance('sqlite', 'libsql')
})
