import { describe, expect, it } from 'vitest'
import { recordingHasher } from '../../core/test/accounts.js'
import { appCode, enroll, twoFactorAuth } from '../../two-factor/test/fixtures.js'
import { username } from '../src/plugin.js'
import { normalizeUsername } from '../src/names.js'
import { nameAuth, PASSWORD, post, signUpNamed, userRow } from './fixtures.js'

describe('normalisation', () => {
  it('compares names in one form: NFKC, case-folded; shows them as typed', () => {
    expect(normalizeUsername('Ada_Lovelace')).toBe('ada_lovelace')
    // Full-width letters and a ligature are their plain letters.
    expect(normalizeUsername('Ａｄａ')).toBe('ada')
    expect(normalizeUsername('ﬁnn')).toBe('finn')
    // Case folding beyond ASCII: ß folds with ss, the final sigma with sigma.
    expect(normalizeUsername('STRAẞE')).toBe(normalizeUsername('strasse'))
    expect(normalizeUsername('ΟΔΥΣΣΕΥΣ')).toBe(normalizeUsername('οδυσσευς'))
  })
})

describe('sign-up with a username', () => {
  it('stores the normalised name and the display form; get-session shows both', async () => {
    const auth = nameAuth()
    const created = await signUpNamed(auth, { username: 'Ada.Lovelace' })
    expect(created.status).toBe(200)
    expect(created.body.user).toMatchObject({ username: 'ada.lovelace', displayUsername: 'Ada.Lovelace' })
    expect(await userRow(auth, created.body.user.id)).toMatchObject({ username: 'ada.lovelace', displayUsername: 'Ada.Lovelace' })
    const session = await auth.api.getSession({ headers: new Headers({ cookie: created.cookie }) })
    expect(session?.user).toMatchObject({ username: 'ada.lovelace', displayUsername: 'Ada.Lovelace' })
  })

  it('takes a display name alone as the username too when it is a valid one', async () => {
    const auth = nameAuth()
    const created = await signUpNamed(auth, { displayUsername: 'Grace' })
    expect(created.body.user).toMatchObject({ username: 'grace', displayUsername: 'Grace' })
    const spaced = await signUpNamed(auth, { displayUsername: 'Grace Hopper' })
    expect(spaced.status).toBe(200)
    expect(spaced.body.user).toMatchObject({ displayUsername: 'Grace Hopper' })
    expect(spaced.body.user.username ?? null).toBeNull()
  })

  it('refuses a name that folds to a taken one, a reserved one, and malformed ones, each with its reason; nothing is written', async () => {
    const auth = nameAuth({ username: { reservedUsernames: ['admin', 'Billing'] } })
    expect((await signUpNamed(auth, { username: 'ada' })).status).toBe(200)
    for (const [name, code] of [
      ['ADA', 'USERNAME_IS_ALREADY_TAKEN'],
      ['Ａｄａ', 'USERNAME_IS_ALREADY_TAKEN'],
      ['admin', 'USERNAME_IS_ALREADY_TAKEN'],
      ['BILLING', 'USERNAME_IS_ALREADY_TAKEN'],
      ['ab', 'USERNAME_TOO_SHORT'],
      ['a'.repeat(31), 'USERNAME_TOO_LONG'],
      ['ada lovelace', 'INVALID_USERNAME'],
      ['ada<script>', 'INVALID_USERNAME'],
    ] as const) {
      const answer = await signUpNamed(auth, { username: name })
      expect({ name, status: answer.status, code: answer.body.code }).toEqual({ name, status: 400, code })
    }
    expect((await signUpNamed(auth, { username: 42 })).body.code).toBe('INVALID_USERNAME')
    expect((await signUpNamed(auth, { username: 'new_one', displayUsername: 'bad\u202Ename' })).body.code).toBe('INVALID_DISPLAY_USERNAME')
    const { db } = await auth.$context
    expect(await db.count({ model: 'user' })).toBe(1)
  })

  it('refuses a huge name before normalising it', async () => {
    const auth = nameAuth()
    const answer = await signUpNamed(auth, { username: '\uFDFA'.repeat(200_000) })
    expect(answer).toMatchObject({ status: 400, body: { code: 'USERNAME_TOO_LONG' } })
  })

  it('twenty sign-ups racing for one free name: exactly one gets it, the others are told it is taken', async () => {
    const auth = nameAuth()
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => signUpNamed(auth, { username: index % 2 ? 'Racer' : 'racer' })))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer).toMatchObject({ status: 400, body: { code: 'USERNAME_IS_ALREADY_TAKEN' } })
    }
    const { db } = await auth.$context
    expect(await db.count({ model: 'user', where: { field: 'username', value: 'racer' } })).toBe(1)
  })
})

describe('POST /is-username-available', () => {
  it('says whether a name is free, in its normalised form; reserved names are not; malformed ones answer 422', async () => {
    const auth = nameAuth()
    await signUpNamed(auth, { username: 'ada' })
    expect((await post(auth, '/is-username-available', { username: 'ADA' })).body).toEqual({ available: false })
    expect((await post(auth, '/is-username-available', { username: 'grace' })).body).toEqual({ available: true })
    expect((await post(auth, '/is-username-available', { username: 'Admin' })).body).toEqual({ available: false })
    expect(await post(auth, '/is-username-available', { username: 'x' })).toMatchObject({ status: 422, body: { code: 'USERNAME_TOO_SHORT' } })
  })

  it('answers 404 with disableAvailabilityCheck', async () => {
    const auth = nameAuth({ username: { disableAvailabilityCheck: true } })
    expect((await post(auth, '/is-username-available', { username: 'grace' })).status).toBe(404)
  })

  it('is limited per client', async () => {
    const auth = nameAuth({ core: { rateLimit: { enabled: true } } })
    const statuses: number[] = []
    for (let index = 0; index < 22; index += 1) statuses.push((await post(auth, '/is-username-available', { username: `name${index}` }, '', { 'x-forwarded-for': '203.0.113.5' })).status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(20)
    expect(statuses.slice(-2)).toEqual([429, 429])
  })
})

describe('POST /sign-in/username', () => {
  it('signs in by the name in any case or width, with the session answer and cookie', async () => {
    const auth = nameAuth()
    const created = await signUpNamed(auth, { username: 'Ada' })
    const answer = await post(auth, '/sign-in/username', { username: 'ＡＤＡ', password: PASSWORD })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ redirect: false, token: expect.any(String), user: { id: created.body.user.id, username: 'ada' } })
    const session = await auth.api.getSession({ headers: new Headers({ cookie: answer.cookie }) })
    expect(session?.user.id).toBe(created.body.user.id)
    const { db } = await auth.$context
    const rows = await db.findMany<Record<string, unknown>>({ model: 'session', where: { field: 'userId', value: created.body.user.id } })
    expect(rows.map((row) => row.amr)).toContain('pwd')
  })

  it('answers an unknown name and a wrong password alike, after the same password work', async () => {
    const hasher = recordingHasher()
    const auth = nameAuth({ core: { emailAndPassword: { enabled: true, password: hasher.password } } })
    await signUpNamed(auth, { username: 'ada' })
    hasher.lengths.length = 0
    const unknown = await post(auth, '/sign-in/username', { username: 'nobody', password: PASSWORD })
    const unknownWork = hasher.lengths.splice(0)
    const wrong = await post(auth, '/sign-in/username', { username: 'ada', password: 'not the password' })
    const wrongWork = hasher.lengths.splice(0)
    expect(unknown.body).toEqual(wrong.body)
    expect(unknown).toMatchObject({ status: 401, body: { code: 'INVALID_USERNAME_OR_PASSWORD', message: 'Invalid username or password' } })
    expect(unknownWork).toHaveLength(1)
    expect(wrongWork).toHaveLength(1)
    expect(unknown.cookie).toBe('')
  })

  it('a malformed name answers 422 with its reason', async () => {
    const auth = nameAuth()
    expect(await post(auth, '/sign-in/username', { username: 'a b c', password: PASSWORD })).toMatchObject({ status: 422, body: { code: 'INVALID_USERNAME' } })
  })

  it('refuses an unverified address when verification is required', async () => {
    const auth = nameAuth({ core: { emailAndPassword: { enabled: true, requireEmailVerification: true } } })
    await signUpNamed(auth, { username: 'ada' })
    expect(await post(auth, '/sign-in/username', { username: 'ada', password: PASSWORD })).toMatchObject({ status: 403, body: { code: 'EMAIL_NOT_VERIFIED' } })
  })

  it('a cross-site form cannot sign a browser in (login CSRF)', async () => {
    const auth = nameAuth()
    await signUpNamed(auth, { username: 'ada' })
    const answer = await post(auth, '/sign-in/username', { username: 'ada', password: PASSWORD }, 'gatehouse.session_token=x', { origin: 'https://evil.example' })
    expect(answer.status).toBe(403)
    expect(answer.setCookies).toEqual([])
  })

  it('is under the strict sign-in limit per client', async () => {
    const auth = nameAuth({ core: { rateLimit: { enabled: true } } })
    await signUpNamed(auth, { username: 'ada' })
    const statuses: number[] = []
    for (let index = 0; index < 4; index += 1) statuses.push((await post(auth, '/sign-in/username', { username: 'ada', password: 'wrong password!' })).status)
    expect(statuses).toEqual([401, 401, 401, 429])
  })

  it('an account with a second factor still passes it: no session until the code, then one that says so', async () => {
    const auth = twoFactorAuth({}, {}, [username()])
    const enrolled = await enroll(auth)
    const { db } = await auth.$context
    await db.update({ model: 'user', where: { field: 'id', value: enrolled.userId }, update: { username: 'ada' } })
    const before = await db.count({ model: 'session', where: { field: 'userId', value: enrolled.userId } })
    const first = await post(auth, '/sign-in/username', { username: 'ada', password: PASSWORD })
    expect(first).toMatchObject({ status: 200, body: { twoFactorRedirect: true } })
    expect(first.setCookies.some((line) => line.includes('session_token='))).toBe(false)
    expect(await db.count({ model: 'session', where: { field: 'userId', value: enrolled.userId } })).toBe(before)
    const second = await post(auth, '/two-factor/verify-totp', { code: appCode(enrolled.secret, auth.clock.now()) }, first.cookie)
    expect(second.status).toBe(200)
    const sessions = await db.findMany<Record<string, unknown>>({ model: 'session', where: { field: 'userId', value: enrolled.userId } })
    expect(sessions.map((row) => row.amr)).toContain('pwd otp mfa')
  })
})

describe('POST /update-user with a username', () => {
  it("renames; a name another account holds is refused; one's own name in another case is allowed", async () => {
    const auth = nameAuth()
    const ada = await signUpNamed(auth, { username: 'ada' })
    await signUpNamed(auth, { username: 'grace' })
    expect((await post(auth, '/update-user', { username: 'Grace' }, ada.cookie)).body.code).toBe('USERNAME_IS_ALREADY_TAKEN')
    expect((await post(auth, '/update-user', { username: 'ADA' }, ada.cookie)).status).toBe(200)
    expect(await userRow(auth, ada.body.user.id)).toMatchObject({ username: 'ada', displayUsername: 'ADA' })
    expect((await post(auth, '/update-user', { username: 'countess' }, ada.cookie)).status).toBe(200)
    expect(await userRow(auth, ada.body.user.id)).toMatchObject({ username: 'countess', displayUsername: 'countess' })
    expect((await post(auth, '/update-user', { displayUsername: 'The Countess' }, ada.cookie)).status).toBe(200)
    expect(await userRow(auth, ada.body.user.id)).toMatchObject({ username: 'countess', displayUsername: 'The Countess' })
  })

  it('with immutableUsername, a name once set stays', async () => {
    const auth = nameAuth({ username: { immutableUsername: true } })
    const ada = await signUpNamed(auth, { username: 'ada' })
    expect(await post(auth, '/update-user', { username: 'countess' }, ada.cookie)).toMatchObject({ status: 400, body: { code: 'USERNAME_IS_IMMUTABLE' } })
    const plain = await signUpNamed(auth, {})
    expect((await post(auth, '/update-user', { username: 'latecomer' }, plain.cookie)).status).toBe(200)
  })
})
