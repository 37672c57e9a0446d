/**
 * @module
 * A plain `Headers` implementation over a Map. The runtime's `Headers` class
 * validates and normalises on every call and is a measurable share of a fast
 * request's cost; headers Gatehouse builds itself, or reads from node:http's
 * already-parsed object, need none of that.
 */

type HeaderValue = string | readonly string[] | undefined

export class HeaderMap implements Headers {
  readonly #values = new Map<string, string[]>()

  /** From node:http's `req.headers` (lowercase names; arrays for repeated headers). */
  static fromNode(source: Readonly<Record<string, HeaderValue>>): HeaderMap {
    const map = new HeaderMap()
    for (const name in source) {
      const value = source[name]
      if (value === undefined) continue
      map.#values.set(name, typeof value === 'string' ? [value] : [...value])
    }
    return map
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase()
    const list = this.#values.get(key)
    if (list) list.push(value)
    else this.#values.set(key, [value])
  }

  delete(name: string): void {
    this.#values.delete(name.toLowerCase())
  }

  get(name: string): string | null {
    const key = name.toLowerCase()
    const list = this.#values.get(key)
    if (!list) return null
    // RFC 6265 §5.4: one Cookie header, pairs joined with "; ".
    return list.join(key === 'cookie' ? '; ' : ', ')
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])]
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase())
  }

  set(name: string, value: string): void {
    this.#values.set(name.toLowerCase(), [value])
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this)
  }

  *entries(): HeadersIterator<[string, string]> {
    // Most responses add no headers of their own: skip sorting an empty key list.
    if (this.#values.size === 0) return
    for (const key of [...this.#values.keys()].sort()) {
      if (key === 'set-cookie') {
        for (const value of this.#values.get(key) ?? []) yield [key, value]
      } else {
        yield [key, this.get(key) as string]
      }
    }
  }

  *keys(): HeadersIterator<string> {
    for (const [key] of this.entries()) yield key
  }

  *values(): HeadersIterator<string> {
    for (const [, value] of this.entries()) yield value
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries()
  }
}
