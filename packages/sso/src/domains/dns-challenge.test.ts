import { describe, expect, it, vi } from 'vitest'
import { checkChallenge, challengeName, DNS_TIMEOUT_MS } from './dns-challenge.js'

const TOKEN = 'a'.repeat(16) + 'B'.repeat(16)

describe('checkChallenge', () => {
  it('looks up _gatehouse-challenge.<domain> and finds the token in any record, chunks joined', async () => {
    const names: string[] = []
    const resolveTxt = async (name: string) => {
      names.push(name)
      return [['v=spf1 -all'], [TOKEN.slice(0, 5), TOKEN.slice(5)]]
    }
    expect(await checkChallenge(resolveTxt, 'example.com', ['other', TOKEN])).toEqual({ ok: true })
    expect(names).toEqual([challengeName('example.com')])
    expect(challengeName('example.com')).toBe('_gatehouse-challenge.example.com')
  })

  it('a record without the token, a name without records and a failed lookup are refusals, told apart', async () => {
    expect(await checkChallenge(async () => [[`${TOKEN}x`], [TOKEN.toLowerCase()]], 'example.com', [TOKEN])).toEqual({ ok: false, reason: 'missing' })
    const notFound = Object.assign(new Error('queryTxt ENOTFOUND'), { code: 'ENOTFOUND' })
    expect(await checkChallenge(() => Promise.reject(notFound), 'example.com', [TOKEN])).toEqual({ ok: false, reason: 'missing' })
    const failure = Object.assign(new Error('queryTxt ESERVFAIL'), { code: 'ESERVFAIL' })
    expect(await checkChallenge(() => Promise.reject(failure), 'example.com', [TOKEN])).toEqual({ ok: false, reason: 'lookup-failed' })
    expect(await checkChallenge(async () => [[TOKEN]], 'example.com', [])).toEqual({ ok: false, reason: 'missing' })
  })

  it('a lookup that never answers fails after the timeout', async () => {
    vi.useFakeTimers()
    try {
      const pending = checkChallenge(() => new Promise(() => {}), 'example.com', [TOKEN])
      await vi.advanceTimersByTimeAsync(DNS_TIMEOUT_MS + 1)
      expect(await pending).toEqual({ ok: false, reason: 'lookup-failed' })
    } finally {
      vi.useRealTimers()
    }
  })
})
