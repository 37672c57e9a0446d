import { describe, expectTypeOf, it } from 'vitest'
import { createAuth } from '../src/auth/create-auth.js'
import { memoryAdapter } from '../src/db/memory/index.js'

describe('types flow from the options to api results', () => {
  const auth = createAuth({
    baseURL: 'http://localhost:3000',
    secret: 'x'.repeat(40),
    database: memoryAdapter(),
    logger: { disabled: true },
    emailAndPassword: { enabled: true },
    user: {
      additionalFields: {
        plan: { type: 'string', required: false },
        seats: { type: 'number' },
        internalNote: { type: 'string', returned: false },
      },
    },
    session: { additionalFields: { device: { type: 'string', required: false } } },
  })

  it('sign-up returns the user with its additional fields, without returned:false ones', () => {
    type Result = Awaited<ReturnType<typeof auth.api.signUpEmail>>
    expectTypeOf<Result['user']['seats']>().toEqualTypeOf<number>()
    expectTypeOf<Result['user']['plan']>().toEqualTypeOf<string | null | undefined>()
    expectTypeOf<Result['user']['email']>().toEqualTypeOf<string>()
    expectTypeOf<Result['user']['createdAt']>().toEqualTypeOf<Date>()
    expectTypeOf<Result['token']>().toEqualTypeOf<string | null>()
  })

  it('get-session carries the session fields too, and may be null', () => {
    type Result = Awaited<ReturnType<typeof auth.api.getSession>>
    expectTypeOf<Result>().toBeNullable()
    expectTypeOf<NonNullable<Result>['session']['device']>().toEqualTypeOf<string | null | undefined>()
    expectTypeOf<NonNullable<Result>['user']['seats']>().toEqualTypeOf<number>()
  })

  it('inputs are checked', () => {
    // @ts-expect-error sign-in requires a password
    void (() => auth.api.signInEmail({ body: { email: 'a@example.com' } }))
    // @ts-expect-error rememberMe is a boolean
    void (() => auth.api.signInEmail({ body: { email: 'a@example.com', password: 'x', rememberMe: 'yes' } }))
    expectTypeOf(auth.api.ok).toBeCallableWith()
    // Every get-session query field is optional, so the query may be left out.
    expectTypeOf(auth.api.getSession).toBeCallableWith({ headers: new Headers() })
  })
})
