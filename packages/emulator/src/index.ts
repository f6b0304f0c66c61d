export { createEmulator } from './emulator.js'
export { startEmulator } from './start.js'
export { DEV_APP } from './defaults.js'
// Seeded randomness, for tests that drive the emulator's faults reproducibly.
export { mulberry32 } from './prng.js'
export type { Random } from './prng.js'
export type { FaultAction, Faults, Filter } from './faults.js'
export type {
  AccessLogLine,
  Emulator,
  EmulatorApp,
  EmulatorCore,
  EmulatorOptions,
  EmulatorStats,
  MintOptions,
  PlanLimit,
  Resource,
  Service,
} from './types.js'
export type {
  WaitForOptions,
  WebhookControls,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointOptions,
  WebhookEvent,
  WebhookEventType,
  WebhookOptions,
  WebhookOutcome,
  WebhookPayload,
} from './webhooks/module.js'
export type {
  DropOptions,
  Member as RealtimeMember,
  RealtimeControls,
  RealtimeEvent,
  RealtimeOptions,
  RealtimeStats,
  StoredMessage as RealtimeMessage,
} from './realtime/types.js'
export type { PushControls, PushDelivery, PushDeliveryStatus, PushOptions } from './push/module.js'
export type { SupportOptions } from './support/module.js'
export type { UploadControls, UploadInfo } from './uploads/module.js'
