import { describe, expect, it } from 'vitest'
import type { Schema } from '../schema.js'
import { fromRow } from './rows.js'

const schema: Schema = {
  note: {
    fields: {
      title: { type: 'string', columnName: 'note_title' },
      pinned: { type: 'boolean' },
      views: { type: 'number' },
      tags: { type: 'json', required: false },
      createdAt: { type: 'date' },
      archivedAt: { type: 'date', required: false },
    },
  },
}

describe('fromRow', () => {
  it('reads each field from its column, converted, in the model’s order with id first', () => {
    const row = fromRow(schema, 'note', {
      archivedAt: null,
      createdAt: '2026-11-25T10:00:00.123Z',
      id: 'n1',
      note_title: 'Hello',
      pinned: 1,
      tags: '["a","b"]',
      views: '7',
      unknownColumn: 'dropped',
    })
    expect(Object.keys(row)).toEqual(['id', 'title', 'pinned', 'views', 'tags', 'createdAt', 'archivedAt'])
    expect(row).toEqual({ id: 'n1', title: 'Hello', pinned: true, views: 7, tags: ['a', 'b'], createdAt: new Date('2026-11-25T10:00:00.123Z'), archivedAt: null })
  })

  it('gives every row its own values, and a missing column reads as null', () => {
    const first = fromRow(schema, 'note', { id: 'a', note_title: 'A', pinned: 0, views: 1, createdAt: '2026-01-01T00:00:00.000Z' })
    const second = fromRow(schema, 'note', { id: 'b', note_title: 'B', pinned: 1, views: 2, createdAt: '2026-01-02T00:00:00.000Z' })
    expect(first).toMatchObject({ id: 'a', title: 'A', pinned: false, tags: null, archivedAt: null })
    expect(second).toMatchObject({ id: 'b', title: 'B', pinned: true, createdAt: new Date('2026-01-02T00:00:00.000Z') })
  })

  it('refuses an invalid stored date as before', () => {
    expect(() => fromRow(schema, 'note', { id: 'a', note_title: 'A', pinned: 0, views: 1, createdAt: 'not a date' })).toThrow('Invalid date value: not a date')
  })

  it('keeps names as data: a quote in a name does not run, and a __proto__ field never becomes the prototype', () => {
    const odd: Schema = {
      odd: {
        fields: {
          '"); throw new Error("injected': { type: 'string' },
          ['__proto__']: { type: 'json', required: false },
        },
      },
    }
    const row = fromRow(odd, 'odd', { id: 'o1', '"); throw new Error("injected': 'safe', ['__proto__']: '{"polluted":true}' })
    expect(row['"); throw new Error("injected']).toBe('safe')
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
    expect((row as { polluted?: unknown }).polluted).toBeUndefined()
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ polluted: true })
  })
})
