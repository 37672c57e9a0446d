import { describe, expect, it } from 'vitest'
import { concurrencyLimit } from './scrypt-limit.js'

/** A task that finishes when told to, recording when it started. */
function deferredTasks() {
  const started: number[] = []
  const finish = new Map<number, () => void>()
  const task = (id: number) => () =>
    new Promise<number>((resolve) => {
      started.push(id)
      finish.set(id, () => resolve(id))
    })
  return { started, finish: (id: number) => finish.get(id)?.(), task }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('concurrencyLimit', () => {
  it('runs at most the limit at once and starts the rest in arrival order as slots free', async () => {
    const limit = concurrencyLimit(2)
    const { started, finish, task } = deferredTasks()
    const results = [1, 2, 3, 4, 5].map((id) => limit.run(task(id)))
    await settle()
    expect(started).toEqual([1, 2])

    finish(2)
    await settle()
    expect(started).toEqual([1, 2, 3])
    finish(1)
    await settle()
    expect(started).toEqual([1, 2, 3, 4])
    finish(3)
    finish(4)
    await settle()
    finish(5)
    expect(await Promise.all(results)).toEqual([1, 2, 3, 4, 5])
  })

  it('frees the slot of a task that fails, and hands the failure to its caller', async () => {
    const limit = concurrencyLimit(1)
    const failing = limit.run(() => Promise.reject(new Error('derivation failed')))
    const next = limit.run(async () => 'ran')
    await expect(failing).rejects.toThrow('derivation failed')
    expect(await next).toBe('ran')
  })

  it('treats a limit below one as one', async () => {
    const limit = concurrencyLimit(0)
    const { started, finish, task } = deferredTasks()
    const results = [1, 2].map((id) => limit.run(task(id)))
    await settle()
    expect(started).toEqual([1])
    finish(1)
    await settle()
    finish(2)
    expect(await Promise.all(results)).toEqual([1, 2])
  })
})
