/**
 * An adapter factory that holds one chosen call until the test releases it,
 * so a race is forced, not hoped for: the route under test waits at the
 * gate while other requests commit, then goes on. Used by the race tests of
 * this package (owner-races.test.ts, membership-races.test.ts).
 */
import type { AdapterFactory } from '@gatehouse/core'

export interface Gate {
  /** Resolves once a call is waiting at the gate. */
  readonly reached: Promise<void>
  release(): void
}

/** Which call to hold: a method of the adapter (outside transactions) and its arguments. */
export type GateMatch = (method: string, args: readonly unknown[]) => boolean

const nextTransaction: GateMatch = (method) => method === 'transaction'

/**
 * An adapter factory whose next matching call, once armed, waits for
 * `release()` before it begins. By default the next transaction.
 *
 * @example
 * const gate = gatedFactory(memoryAdapter())
 * const held = gate.arm()
 * const pending = request()
 * await held.reached
 * await meanwhile()
 * held.release()
 */
export function gatedFactory(factory: AdapterFactory) {
  let armed: { match: GateMatch; reached: () => void; released: Promise<void> } | null = null
  const gated: AdapterFactory = async (options) => {
    const adapter = await factory(options)
    return new Proxy(adapter, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target)
        if (typeof value !== 'function') return value
        const method = String(key)
        const fn = value as (...args: unknown[]) => unknown
        return (...args: unknown[]) => {
          const gate = armed
          if (!gate?.match(method, args)) return fn.apply(target, args)
          armed = null
          gate.reached()
          return gate.released.then(() => fn.apply(target, args))
        }
      },
    })
  }
  return {
    factory: gated,
    arm(match: GateMatch = nextTransaction): Gate {
      let reached = () => {}
      let release = () => {}
      const reachedPromise = new Promise<void>((resolve) => (reached = resolve))
      const released = new Promise<void>((resolve) => (release = resolve))
      armed = { match, reached, released }
      return { reached: reachedPromise, release }
    },
  }
}

/** Matches a call of `method` on `model` (`{ model }` is every adapter call's first argument). */
export function callOn(method: string, model: string): GateMatch {
  return (called, args) => called === method && (args[0] as { model?: unknown } | undefined)?.model === model
}
