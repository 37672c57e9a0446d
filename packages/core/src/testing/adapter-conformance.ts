/**
 * @module
 * The adapter conformance suite: one list of cases every Gatehouse adapter
 * must pass, so core can rely on the same semantics (case-sensitive strings,
 * literal LIKE metacharacters, LEFT JOIN reads, atomic `consume`, real
 * rollback, composite unique constraints with SQL's null semantics) whatever
 * the backend. `runAdapterConformance` registers the cases with vitest;
 * `createConformanceSuite` hands them out as plain functions for any other
 * runner, and for proving that the suite catches broken adapters.
 */
import { afterAll, describe, it } from 'vitest'
import { compositeUniqueCases } from './conformance/cases-composite-unique.js'
import { constraintCases } from './conformance/cases-constraints.js'
import { crudCases } from './conformance/cases-crud.js'
import { joinCases } from './conformance/cases-joins.js'
import { operatorCases } from './conformance/cases-operators.js'
import { queryCases } from './conformance/cases-query.js'
import { stringCases } from './conformance/cases-strings.js'
import { transactionCases } from './conformance/cases-transactions.js'
import { namingCases } from './conformance/cases-naming.js'
import { createHarness, suiteSchema } from './conformance/harness.js'
import type { AdapterConformanceOptions, CaseDefinition, ConformanceSuite } from './conformance/types.js'

const definitions: readonly CaseDefinition[] = [
  ...crudCases,
  ...operatorCases,
  ...stringCases,
  ...queryCases,
  ...joinCases,
  ...constraintCases,
  ...compositeUniqueCases,
  ...transactionCases,
  ...namingCases,
]

/**
 * Every case name, for `skip` lists (a skip naming anything else is an error).
 *
 * @example
 * const foreignKeyCases = conformanceCaseNames.filter((name) => name.includes('FOREIGN_KEY'))
 */
export const conformanceCaseNames: readonly string[] = definitions.map((definition) => definition.name)

/**
 * The cases as plain async functions sharing one adapter. Run them one at a
 * time: each empties the store first.
 *
 * @example
 * const suite = createConformanceSuite({ name: 'memory', createAdapter: (schema) => memoryAdapter()({ schema }) })
 * for (const testCase of suite.cases) console.log(testCase.name, (await testCase.run()).status)
 * await suite.close()
 */
export function createConformanceSuite(options: AdapterConformanceOptions): ConformanceSuite {
  const harness = createHarness(options)
  const cases = definitions.map((definition) => {
    const requires = definition.requires ?? []
    return {
      name: definition.name,
      requires,
      async run() {
        const adapter = await harness.adapter()
        const missing = requires.find((capability) => !adapter.capabilities[capability])
        if (missing) return { status: 'skipped', reason: `the adapter does not declare capabilities.${missing}` } as const
        if (definition.needsCatalog === true && !options.listColumns) return { status: 'skipped', reason: 'no listColumns was given to read the database catalog' } as const
        await harness.reset(adapter)
        await definition.body({ adapter, schema: suiteSchema(options), listColumns: options.listColumns })
        return { status: 'passed' } as const
      },
    }
  })
  return { cases, close: () => harness.close() }
}

/**
 * Registers the conformance suite with vitest: one `describe` for the
 * adapter, one `it` per case. Skips must name existing cases and give a
 * reason; a case that needs a capability the adapter lacks is reported as
 * skipped at run time.
 *
 * @example
 * runAdapterConformance({
 *   name: 'postgres',
 *   createAdapter: (schema) => postgresAdapter({ pool })({ schema }),
 *   reset: async () => { await pool.query('TRUNCATE ... CASCADE') },
 *   skip: [{ reason: 'this backend has no foreign keys', tests: ['a dangling reference throws FOREIGN_KEY_VIOLATION'] }],
 * })
 */
export function runAdapterConformance(options: AdapterConformanceOptions): void {
  const reasons = skipReasons(options)
  const suite = createConformanceSuite(options)
  describe(`adapter conformance: ${options.name}`, () => {
    afterAll(() => suite.close())
    for (const testCase of suite.cases) {
      const reason = reasons.get(testCase.name)
      if (reason !== undefined) {
        it.skip(`${testCase.name} (skipped: ${reason})`, () => {})
        continue
      }
      it(testCase.name, async (context) => {
        const result = await testCase.run()
        if (result.status === 'skipped') context.skip(result.reason)
      })
    }
  })
}

function skipReasons(options: AdapterConformanceOptions): Map<string, string> {
  const reasons = new Map<string, string>()
  for (const { reason, tests } of options.skip ?? []) {
    if (!reason.trim()) throw new Error(`runAdapterConformance(${options.name}): every skip needs a reason`)
    for (const name of tests) {
      // A misspelt name would otherwise run the case it meant to skip, or skip nothing, silently.
      if (!conformanceCaseNames.includes(name)) {
        throw new Error(`runAdapterConformance(${options.name}): no conformance case is named "${name}"`)
      }
      reasons.set(name, reason)
    }
  }
  return reasons
}
