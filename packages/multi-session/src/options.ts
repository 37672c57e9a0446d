/**
 * @module
 * What `multiSession(options)` accepts (docs/multi-session.md#options).
 */
export interface MultiSessionOptions {
  /** Accounts one browser may hold at once; 5 by default, as the leading library's. */
  readonly maximumSessions?: number
}

export function resolveMaximum(options: MultiSessionOptions): number {
  const maximum = options.maximumSessions ?? 5
  if (!Number.isInteger(maximum) || maximum < 1 || maximum > 20) throw new Error('multiSession: maximumSessions must be a whole number from 1 to 20')
  return maximum
}
