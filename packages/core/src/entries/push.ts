// @tandem/core/push: Web Push for the browser (docs/push.md): enable from a click, keep the
// subscription current, remove it on a logout. An entry of its own: an app without push ships none of it.
export { createPush, disablePush } from '../push/create-push.js'
export type { PushController, PushOptions, PushReason, PushState, PushStatus } from '../push/types.js'
export { isPushPayload, type PushPayload } from '@tandem/contract'
