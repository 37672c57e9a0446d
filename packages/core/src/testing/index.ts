export { conformanceCaseNames, createConformanceSuite, runAdapterConformance } from './adapter-conformance.js'
export { ConformanceAssertionError } from './conformance/assert.js'
export { conformanceSchema, namedConformanceSchema } from './conformance/fixtures.js'
export type {
  AdapterConformanceOptions,
  ConformanceCase,
  ConformanceResult,
  ConformanceSkip,
  ConformanceSuite,
} from './conformance/types.js'
export { runSecondaryStorageConformance, secondaryStorageConformanceTests } from './storage-conformance.js'
export type { SecondaryStorageConformanceOptions, SecondaryStorageConformanceTest } from './storage-conformance.js'
