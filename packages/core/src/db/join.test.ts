import { describe, expect, it } from 'vitest'
import type { JoinSpec, Joins } from './adapter.js'
import { resolveJoins } from './join.js'
import type { Schema } from './schema.js'

const schema: Schema = {
  user: { fields: { email: { type: 'string', unique: true }, name: { type: 'string' }, age: { type: 'number' } } },
  session: { fields: { userId: { type: 'string' }, email: { type: 'string' }, count: { type: 'number' }, data: { type: 'json', required: false } } },
}

const joinUser = (field: string, references = 'id'): JoinSpec => ({ model: 'user', on: { field, references } })

describe('resolveJoins', () => {
  it('returns the joins in key order, on id or on a unique field', () => {
    expect(resolveJoins(schema, 'session', { user: joinUser('userId'), byEmail: joinUser('email', 'email') })).toEqual([
      { alias: 'user', model: 'user', field: 'userId', references: 'id' },
      { alias: 'byEmail', model: 'user', field: 'email', references: 'email' },
    ])
    expect(resolveJoins(schema, 'session', undefined)).toEqual([])
    expect(resolveJoins(schema, 'session', {})).toEqual([])
  })

  it.each([
    ['an alias equal to a field', { email: joinUser('userId') }, 'Invalid join "email" on model "session": the alias collides with the field "session.email"'],
    ['the alias id', { id: joinUser('userId') }, 'the alias collides with the field "session.id"'],
    ['an empty alias', { '': joinUser('userId') }, 'the alias must not be empty'],
    ['an unknown model', { user: { model: 'users', on: { field: 'userId', references: 'id' } } }, 'unknown model "users"'],
    ['an unknown base field', { user: joinUser('userID') }, 'unknown field "session.userID"'],
    ['an unknown joined field', { user: joinUser('userId', 'uid') }, 'unknown field "user.uid"'],
    ['a non-unique joined field', { user: joinUser('email', 'name') }, '"user.name" must be id or a unique field'],
    ['fields of different types', { user: joinUser('count') }, '"session.count" (number) cannot be matched with "user.id" (string)'],
    ['an inherited property as model', { user: { model: 'toString', on: { field: 'userId', references: 'id' } } }, 'unknown model "toString"'],
  ] as const)('rejects %s', (_label, join, message) => {
    expect(() => resolveJoins(schema, 'session', join)).toThrow(message)
  })

  it('rejects a malformed spec and an unknown base model', () => {
    const malformed = JSON.parse('{"user":{"model":"user"}}') as Joins
    expect(() => resolveJoins(schema, 'session', malformed)).toThrow('expected { model, on: { field, references } }')
    expect(() => resolveJoins(schema, 'sessions', { user: joinUser('userId') })).toThrow('Unknown model "sessions"')
  })
})
