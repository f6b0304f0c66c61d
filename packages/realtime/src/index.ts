// @tandem/realtime: one WebSocket, many channels, resume without loss or duplicates. See docs/realtime.md.
export { createRealtime } from './realtime.js'
export type { Realtime, RealtimeOptions, RealtimeSource } from './realtime.js'
export { DEFAULTS } from './defaults.js'
export type * from './types.js'
