#!/usr/bin/env node
/**
 * @module
 * The `gatehouse` command: `migrate` applies the schema, `generate` prints
 * the SQL for review, `cleanup` deletes expired rows (docs/core.md#cleanup).
 * It loads the application's auth module (the file exporting the
 * `createAuth` result as `auth` or default), so the schema it migrates is
 * exactly the one the server runs with.
 */
import { runCli } from './run.js'

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  },
)
