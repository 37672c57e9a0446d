/**
 * @module
 * Preloaded into `scrypt-rate.mjs` by `http.mjs` (`node --import`): prints the
 * process's CPU time when it exits, so the scrypt rows get a CPU ms per hash
 * to set beside the server's CPU ms per sign-in, without touching the script.
 * Includes start-up and the one warm-up hash: a few tens of ms against the
 * seconds of hashing measured.
 */

process.once('exit', () => {
  const { user, system } = process.cpuUsage()
  process.stdout.write(`cpu ms:                   ${((user + system) / 1000).toFixed(1)}\n`)
})
