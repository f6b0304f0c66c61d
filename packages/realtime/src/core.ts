// What this package uses of @tandem/core, imported in this one place: a bundler keeps one
// `import` statement per importing file, so one file here means one per entry in the bundle.
// The token provider and the errors come from the modular client's entry, the helpers from
// core's internal entry: neither pulls in the HTTP pipeline of `createClient`.
export { RealtimeError, ValidationError, createTokenProvider } from '@tandem/core'
export {
  LEASE_RELEASE_MS,
  MAX_TIMER_MS,
  TOKEN_DEFAULTS,
  clampDelay,
  createBackoff,
  createElection,
  createEmitter,
  createPool,
  fullJitter,
  isTokenRefusal,
  openBus,
  parseBaseUrl,
  redact,
} from '@tandem/core/internal'
export type { Backoff, BackoffOptions, Bus, Election } from '@tandem/core/internal'
