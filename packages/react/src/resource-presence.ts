// @tandem/react/resource-presence: the hooks over @tandem/realtime/resource-presence (who else views,
// types in or locks a resource), an entry of its own so an app that does not use them ships none of it.
export { useCollectionPresence, useResourcePresence } from './use-resource-presence.js'
export type { ResourcePresenceResult } from './use-resource-presence.js'
