/**
 * Vitest global setup: says once, at the top of the run, which service-backed
 * suites run and which are skipped and why. With CI=true a configured service
 * that does not answer fails the run instead of being skipped.
 */
import { connect } from 'node:net'

const services = [
  { name: 'PostgreSQL', variable: 'GATEHOUSE_TEST_POSTGRES_URL' },
  { name: 'MariaDB/MySQL', variable: 'GATEHOUSE_TEST_MYSQL_URL' },
  { name: 'Redis', variable: 'GATEHOUSE_TEST_REDIS_URL' },
] as const

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.end()
      resolve(true)
    })
    socket.setTimeout(2000, () => {
      socket.destroy()
      resolve(false)
    })
    socket.on('error', () => resolve(false))
  })
}

export default async function setup(): Promise<void> {
  const lines: string[] = []
  for (const service of services) {
    const url = process.env[service.variable]
    if (!url) {
      lines.push(`  skipped  ${service.name} suites: ${service.variable} is not set`)
      continue
    }
    if (!(await reachable(url))) {
      throw new Error(`${service.name} is configured (${service.variable}) but does not answer at ${new URL(url).host}`)
    }
    lines.push(`  running  ${service.name} suites against ${new URL(url).host}`)
  }
  console.log(`\nService-backed suites:\n${lines.join('\n')}\n`)
}
