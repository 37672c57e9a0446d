/**
 * A logger option that records every line at every level, to prove that no
 * token or password ever reaches the logs.
 */
import type { LoggerOptions, LogLevel } from '../src/logging/logger.js'

export function captureLogs() {
  const lines: string[] = []
  const logger: LoggerOptions = {
    level: 'debug',
    log: (level: LogLevel, message: string, meta?: Record<string, unknown>) => {
      lines.push(`${level} ${message} ${meta === undefined ? '' : JSON.stringify(meta)}`)
    },
  }
  return {
    lines,
    logger,
    /** The secrets that appear in some logged line (expected: none). */
    leaked: (...secrets: readonly string[]) => secrets.filter((secret) => lines.some((line) => line.includes(secret))),
  }
}
