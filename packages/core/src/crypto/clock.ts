/**
 * @module
 * Time as a dependency: handlers read `ctx.clock.now()`, so tests can move time.
 */

export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/**
 * A clock tests move by hand.
 *
 * @example
 * const clock = manualClock(new Date('2026-01-01T00:00:00Z'))
 * clock.advance(60_000)
 */
export function manualClock(start: Date = new Date('2026-01-01T00:00:00.000Z')): Clock & {
  advance(ms: number): void
  set(date: Date): void
} {
  let current = start.getTime()
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms
    },
    set(date) {
      current = date.getTime()
    },
  }
}
