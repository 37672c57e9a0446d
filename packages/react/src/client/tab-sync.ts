/**
 * @module
 * Keeps the tabs of one browser in step. After a call that changes what a
 * store holds (a sign-in, an organization switch), the tab that made it tells
 * the others which stores to reload, over a BroadcastChannel, or, where there
 * is none, through the `storage` event of a localStorage key. Only store
 * names travel: never a session, a token or a user. Outside a browser
 * (server rendering, scripts) there are no tabs and nothing is opened.
 */

export interface TabSync {
  /** Tells the other tabs to reload these stores. */
  publish(stores: readonly string[]): void
  /** Starts delivering the other tabs' messages to `receive`; returns the stop function. */
  listen(receive: (stores: readonly string[]) => void): () => void
}

interface Message {
  /** The sending client: a tab's own listener hears its own messages, and drops them. */
  readonly from: string
  readonly stores: readonly string[]
}

/** What this module needs of the browser; tests pass their own. */
export interface TabSyncEnvironment {
  readonly BroadcastChannel?: typeof BroadcastChannel
  readonly localStorage?: Pick<Storage, 'setItem'>
  readonly addEventListener?: (type: 'storage', listener: (event: StorageEvent) => void) => void
  readonly removeEventListener?: (type: 'storage', listener: (event: StorageEvent) => void) => void
}

/**
 * @example
 * const sync = createTabSync('gatehouse:https://app.example.com/api/auth', browserEnvironment())
 * const stop = sync.listen((stores) => stores.forEach(invalidate))
 * sync.publish(['session'])
 */
export function createTabSync(name: string, environment: TabSyncEnvironment | null): TabSync {
  if (!environment) return { publish: () => {}, listen: () => () => {} }
  // Not a secret: it only tells this client's messages from other tabs'.
  const self = Math.random().toString(36).slice(2)
  const Channel = environment.BroadcastChannel
  if (Channel) return channelSync(name, self, Channel)
  return storageSync(name, self, environment)
}

/**
 * The browser's globals, or null outside a browser.
 *
 * @example
 * createTabSync('gatehouse:https://app.example.com/api/auth', browserEnvironment())
 */
export function browserEnvironment(): TabSyncEnvironment | null {
  if (typeof window === 'undefined' || typeof document === 'undefined') return null
  let localStorage: Storage | undefined
  try {
    localStorage = window.localStorage
  } catch {
    // Storage denied (a sandboxed frame, blocked cookies): no storage fallback then.
  }
  return {
    BroadcastChannel: typeof BroadcastChannel === 'function' ? BroadcastChannel : undefined,
    localStorage,
    addEventListener: (type, listener) => window.addEventListener(type, listener),
    removeEventListener: (type, listener) => window.removeEventListener(type, listener),
  }
}

function channelSync(name: string, self: string, Channel: typeof BroadcastChannel): TabSync {
  return {
    publish(stores) {
      // A short-lived sender: messages posted before close() are still delivered, and nothing stays open.
      const channel = new Channel(name)
      channel.postMessage({ from: self, stores } satisfies Message)
      channel.close()
    },
    listen(receive) {
      const channel = new Channel(name)
      channel.onmessage = (event: MessageEvent) => {
        const stores = readMessage(event.data, self)
        if (stores) receive(stores)
      }
      return () => channel.close()
    },
  }
}

function storageSync(name: string, self: string, environment: TabSyncEnvironment): TabSync {
  const { localStorage, addEventListener, removeEventListener } = environment
  return {
    publish(stores) {
      // The event fires only when the value changes: the nonce makes every message new.
      const nonce = Math.random().toString(36).slice(2)
      try {
        localStorage?.setItem(name, JSON.stringify({ from: self, stores, nonce }))
      } catch {
        // Storage full or denied: the other tabs catch up on their next focus refetch.
      }
    },
    listen(receive) {
      if (!addEventListener || !removeEventListener) return () => {}
      const listener = (event: StorageEvent) => {
        if (event.key !== name || event.newValue === null) return
        let parsed: unknown
        try {
          parsed = JSON.parse(event.newValue)
        } catch {
          return
        }
        const stores = readMessage(parsed, self)
        if (stores) receive(stores)
      }
      addEventListener('storage', listener)
      return () => removeEventListener('storage', listener)
    },
  }
}

/** The store names of another tab's message; null for this tab's own and for anything else posted under the same name. */
function readMessage(data: unknown, self: string): readonly string[] | null {
  if (typeof data !== 'object' || data === null || !('stores' in data) || !('from' in data) || data.from === self) return null
  const stores = data.stores
  if (!Array.isArray(stores) || !stores.every((store) => typeof store === 'string')) return null
  return stores
}
