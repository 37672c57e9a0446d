import { afterEach, describe, expect, it } from 'vitest'
import { browserEnvironment, createTabSync } from './tab-sync.js'

const stops: Array<() => void> = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

function received(): { stores: string[][]; receive: (stores: readonly string[]) => void } {
  const stores: string[][] = []
  return { stores, receive: (names) => stores.push([...names]) }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('tab sync', () => {
  it('tells the other tabs over a BroadcastChannel, never the sender', async () => {
    const environment = browserEnvironment()
    expect(environment?.BroadcastChannel).toBeDefined()
    const here = createTabSync('gatehouse:test-channel', environment)
    const there = createTabSync('gatehouse:test-channel', environment)
    const elsewhere = createTabSync('gatehouse:another-server', environment)
    const inbox = received()
    const ownInbox = received()
    const otherInbox = received()
    // The sender listens too, on a channel of its own: the browser delivers its message there, and it must drop it.
    stops.push(there.listen(inbox.receive), here.listen(ownInbox.receive), elsewhere.listen(otherInbox.receive))

    here.publish(['session', 'activeOrganization'])
    await settle()
    expect(inbox.stores).toEqual([['session', 'activeOrganization']])
    expect(ownInbox.stores).toEqual([])
    expect(otherInbox.stores).toEqual([])
  })

  it('ignores anything else posted under its name', async () => {
    const environment = browserEnvironment()
    const inbox = received()
    stops.push(createTabSync('gatehouse:noise', environment).listen(inbox.receive))
    const stranger = new BroadcastChannel('gatehouse:noise')
    stranger.postMessage('hello')
    stranger.postMessage({ stores: [1, 2] })
    stranger.close()
    await settle()
    expect(inbox.stores).toEqual([])
  })

  it('falls back to the storage event without BroadcastChannel', () => {
    const environment = { ...browserEnvironment(), BroadcastChannel: undefined }
    const sender = createTabSync('gatehouse:storage', environment)
    const inbox = received()
    stops.push(createTabSync('gatehouse:storage', environment).listen(inbox.receive))

    sender.publish(['session'])
    const written = localStorage.getItem('gatehouse:storage')
    expect(JSON.parse(written ?? 'null')).toMatchObject({ stores: ['session'] })
    // The browser fires `storage` in the other tabs only; here the test plays the other tab.
    window.dispatchEvent(new StorageEvent('storage', { key: 'gatehouse:storage', newValue: written }))
    window.dispatchEvent(new StorageEvent('storage', { key: 'unrelated', newValue: written }))
    window.dispatchEvent(new StorageEvent('storage', { key: 'gatehouse:storage', newValue: 'not json' }))
    expect(inbox.stores).toEqual([['session']])

    // Every message is new, even with the same stores: the nonce changes the value.
    sender.publish(['session'])
    expect(localStorage.getItem('gatehouse:storage')).not.toBe(written)
  })

  it('does nothing outside a browser', () => {
    const sync = createTabSync('gatehouse:server', null)
    expect(() => sync.publish(['session'])).not.toThrow()
    expect(() => sync.listen(() => {})()).not.toThrow()
  })
})
