/**
 * @module
 * The exact instants of the datetimes the event schemas parsed
 * (docs/billing.md#events). The platform sends microseconds, which a `Date`
 * cuts to milliseconds; each parsed `Date` keeps the exact instant on the
 * side, so two changes made in the same millisecond are still ordered.
 *
 * Kept apart from the schemas: the mirror reads instants on every event,
 * while the schemas themselves load with the first delivery (receive.ts).
 */

// Keyed by the Date the schema handed out: the public shapes stay plain Dates, and nothing outlives them.
const exactInstants = new WeakMap<Date, number>()

/** Records the instant `text` (an ISO datetime with an offset, checked by the schema) names for `date`. */
export function rememberInstant(date: Date, text: string): void {
  exactInstants.set(date, microsecondsSinceEpoch(text))
}

/**
 * The instant of a datetime the schemas parsed, in microseconds since the
 * epoch, as the platform sent it (a safe integer until the year 2255);
 * milliseconds × 1000 for any other `Date`.
 *
 * @example
 * microsecondsOf(datetime.parse('2026-01-01T09:00:00.000001Z')) // 1767258000000001
 */
export function microsecondsOf(date: Date): number {
  return exactInstants.get(date) ?? date.getTime() * 1000
}

/** An ISO datetime with an offset → microseconds; digits past the sixth are dropped. */
function microsecondsSinceEpoch(text: string): number {
  // The only '.' in an ISO datetime starts the fraction of a second.
  const fraction = /\.(\d+)/.exec(text)
  if (!fraction?.[1]) return Date.parse(text) * 1000
  const whole = text.slice(0, fraction.index) + text.slice(fraction.index + fraction[0].length)
  return Date.parse(whole) * 1000 + Number(fraction[1].slice(0, 6).padEnd(6, '0'))
}
