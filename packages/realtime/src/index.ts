// @tandem/realtime: one WebSocket, many channels, resume without loss or duplicates. See docs/realtime.md.
import type { ReadableStore } from '@tandem/core'
export { createRealtime } from './realtime.js'
export type { Realtime, RealtimeOptions, RealtimeSource } from './realtime.js'
export type { PositionsFactory } from './messages/positions.js'
export type { BackoffOptions } from './core.js'
export { DEFAULTS } from './defaults.js'
export type * from './types.js'
export { leaseChannel, leasedChannels } from './channels/lease.js'
export { createFeed, nextFrame } from './stores/feed.js'
export type { Feed, Schedule } from './stores/feed.js'
export { createMessageStore } from './stores/message-store.js'
export type { MessageStoreOptions } from './stores/message-store.js'
export { connectionStore } from './stores/connection-store.js'
export type { ConnectionSnapshot } from './stores/connection-store.js'
/** @deprecated Use `ReadableStore` from `@tandem/core`: the one store interface, the same shape. */
export type Store<S> = ReadableStore<S>
export { createMessageLog } from './messages/message-log.js'
export type { MessageLog, MessageLogOptions, MessageLogSnapshot } from './messages/message-log.js'
