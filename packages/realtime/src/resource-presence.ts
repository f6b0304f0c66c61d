// @tandem/realtime/resource-presence: who else is on a resource (viewing, typing, a soft lock), an
// entry of its own so an app that does not use it does not ship it. One presence channel per
// collection (`resourcePresenceChannel(path)`), one member per connection. See docs/realtime.md.
export { resourcePresence } from './resource-presence/resource.js'
export type {
  LockOptions,
  ResourceLock,
  ResourcePresence,
  ResourcePresenceOptions,
  ResourcePresenceSnapshot,
  ResourcePresenceStatus,
} from './resource-presence/resource.js'
export { collectionPresence } from './resource-presence/collection.js'
export type { Activity, PresenceMember } from './resource-presence/view.js'
export type { PresenceCollection, ResourcePresenceData } from '@tandem/contract'
