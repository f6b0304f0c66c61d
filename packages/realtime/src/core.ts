// What this package uses of @tandem/core, imported in this one place: a bundler keeps one
// `import` statement per importing file, so one file here means one in the bundle.
export {
  DEFAULTS as CORE_DEFAULTS,
  RealtimeError,
  ValidationError,
  MAX_TIMER_MS,
  clampDelay,
  createEmitter,
  createPool,
  createTokenProvider,
  fullJitter,
  redact,
} from '@tandem/core'
