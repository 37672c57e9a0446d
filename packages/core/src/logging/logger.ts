/**
 * @module
 * The logger handlers receive. Levels filter; the default writes to the
 * console. Nothing sensitive goes in: callers log ids and codes, never
 * tokens, passwords or request bodies.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export interface Logger {
  debug(message: string, meta?: Record<string, unknown>): void
  info(message: string, meta?: Record<string, unknown>): void
  warn(message: string, meta?: Record<string, unknown>): void
  error(message: string, meta?: Record<string, unknown>): void
}

export interface LoggerOptions {
  /** Lowest level written. Default `warn`. */
  level?: LogLevel | undefined
  disabled?: boolean | undefined
  /** Where lines go. Default: `console[level]`, prefixed with `[gatehouse]`. */
  log?: ((level: LogLevel, message: string, meta?: Record<string, unknown>) => void) | undefined
}

const order: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 }

/**
 * @example
 * const logger = createLogger({ level: 'info' })
 * logger.warn('rate limit storage is in memory', { instances: 1 })
 */
export function createLogger(options: LoggerOptions | Logger = {}): Logger {
  if ('error' in options && typeof options.error === 'function') return options as Logger
  const { level = 'warn', disabled = false, log } = options as LoggerOptions
  const write =
    log ??
    ((at: LogLevel, message: string, meta?: Record<string, unknown>) => {
      const line = `[gatehouse] ${message}`
      if (meta === undefined) console[at](line)
      else console[at](line, meta)
    })
  const at =
    (lineLevel: LogLevel) =>
    (message: string, meta?: Record<string, unknown>): void => {
      if (disabled || order[lineLevel] < order[level]) return
      write(lineLevel, message, meta)
    }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}
