/**
 * The adapter conformance suite on MySQL/MariaDB, isolated in a database of
 * its own (random name, dropped afterwards).
 */
import { randomBytes } from 'node:crypto'
import { createConnection } from 'mysql2/promise'
import { afterAll, beforeAll, describe } from 'vitest'
import { mysqlAdapter } from '../src/db/kysely/mysql.js'
import { runAdapterConformance } from '../src/testing/index.js'
import { services } from './services.js'

const url = services.mysql ?? ''
const databaseName = `gatehouse_conformance_${randomBytes(6).toString('hex')}`

async function admin(statement: string): Promise<void> {
  const connection = await createConnection(url)
  try {
    await connection.query(statement)
  } finally {
    await connection.end()
  }
}

function isolatedUrl(): string {
  const isolated = new URL(url)
  isolated.pathname = `/${databaseName}`
  return isolated.toString()
}

describe.skipIf(!services.mysql)('mysql', () => {
  beforeAll(() => admin(`create database \`${databaseName}\``))
  afterAll(() => admin(`drop database if exists \`${databaseName}\``))

  runAdapterConformance({
    name: 'mysql',
    createAdapter: (schema) => mysqlAdapter(isolatedUrl())({ schema }),
  })
})
