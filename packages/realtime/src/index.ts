// @tandem/realtime: one WebSocket, many channels, resume without loss or duplicates. See docs/realtime.md.
export { createRealtime } from './realtime.js'
export type { Realtime, RealtimeOptions, RealtimeSource } from './realtime.js'
export type { BackoffOptions } from './backoff.js'
export { DEFAULTS } from './defaults.js'
export type * from './types.js'
export { leaseChannel, leasedChannels } from './lease.js'
export { connectionStore, createFeed, createMessageStore, nextFrame, presenceStore } from './stores.js'
export type { ConnectionSnapshot, Feed, MessageStoreOptions, Schedule, Store } from './stores.js'
