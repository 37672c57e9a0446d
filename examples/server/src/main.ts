/**
 * @module
 * `pnpm --dir examples/server start`: reads the environment (config.ts),
 * starts the server and prints its URL; SIGTERM and SIGINT stop it at once.
 */
import { fileURLToPath } from 'node:url'
import { ConfigError, readConfig } from './config.js'
import { startServer } from './server.js'

const appDirectory = fileURLToPath(new URL('../../react-app/dist', import.meta.url))

async function main(): Promise<void> {
  const config = readConfig(process.env)
  if (config.secretIsDevelopmentDefault) {
    console.warn(
      [
        '',
        '  !!! WARNING: AUTH_SECRET is not set. Using the public development secret.',
        '  !!! Anyone can forge sessions on this server. Set AUTH_SECRET (32+ characters) before exposing it.',
        '',
      ].join('\n'),
    )
  }
  const server = await startServer(config, { appDirectory })
  console.log(`Gatehouse example server ready on ${server.url} (database ${config.databasePath})`)
  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    console.log(`${signal}: stopping`)
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error)
  process.exit(1)
})
