// @tandem/core/realtime-rest: `realtimeRest(client)`, the realtime service's REST face.
export { createRealtimeService, realtimeRest } from '../services/realtime.js'
export type * from '../services/realtime.js'
