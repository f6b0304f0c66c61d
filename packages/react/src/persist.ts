// @tandem/react/persist: the saved cache and the durable outbox of @tandem/core/persist as React
// bindings (a gate and two hooks), an entry of its own so an app that does not persist ships none of it.
export { PersistGate, usePersistStatus } from './persist-gate.js'
export type { PersistGateProps } from './persist-gate.js'
export { useOutbox } from './use-outbox.js'
