/**
 * @module
 * Graceful stop for SIGTERM (docs/deployment.md#graceful-shutdown). The
 * listening socket closes first, so new connections are refused and a load
 * balancer moves on; requests already running finish, a sign-up in the middle
 * of its scrypt hash included, and their connections close after the answer
 * instead of waiting for another request. Past the timeout the remaining
 * connections are cut: a cut request's transaction then never commits, so it
 * leaves no partial rows either.
 */
import type { Server, ServerResponse } from 'node:http'

export interface ResponseTracker {
  add(response: ServerResponse): void
  /** From now on every response, the ones already running included, ends its connection. */
  stopKeepAlive(): void
}

/**
 * @example
 * const inFlight = trackResponses()
 * createServer((req, res) => { inFlight.add(res); … })
 */
export function trackResponses(): ResponseTracker {
  const open = new Set<ServerResponse>()
  let stopping = false
  const noKeepAlive = (response: ServerResponse) => {
    // Read when the head is written: `Connection: close`, and the socket ends after this response.
    if (!response.headersSent) response.shouldKeepAlive = false
  }
  return {
    add(response) {
      if (stopping) noKeepAlive(response)
      open.add(response)
      response.once('close', () => open.delete(response))
    },
    stopKeepAlive() {
      stopping = true
      for (const response of open) noKeepAlive(response)
    },
  }
}

/**
 * Closes `server` gracefully: 'drained' once every connection is closed,
 * 'forced' if some were still open after `timeoutMs` and had to be cut.
 *
 * @example
 * const outcome = await gracefulClose(server, inFlight, 10_000)
 */
export async function gracefulClose(server: Server, responses: ResponseTracker, timeoutMs: number): Promise<'drained' | 'forced'> {
  responses.stopKeepAlive()
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  // A keep-alive connection that is idle now, or becomes idle between two of its requests, has nothing to finish.
  server.closeIdleConnections()
  const sweep = setInterval(() => server.closeIdleConnections(), 100)
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<'forced'>((resolve) => {
    timer = setTimeout(() => resolve('forced'), timeoutMs)
  })
  const outcome = await Promise.race([closed.then(() => 'drained' as const), deadline])
  clearInterval(sweep)
  clearTimeout(timer)
  if (outcome === 'forced') {
    server.closeAllConnections()
    await closed
  }
  return outcome
}
