/** The adapter conformance suite on the Drizzle adapter over mysql2 (MariaDB), when GATEHOUSE_TEST_MYSQL_URL is set. */
import { describe } from 'vitest'
import { drizzleConformance } from './conformance.js'
import { dialects } from './databases.js'

const mysql = dialects.find(({ dialect }) => dialect === 'mysql')

describe.skipIf(!mysql?.enabled)('drizzle on mysql', () => {
  drizzleConformance('mysql')
})
