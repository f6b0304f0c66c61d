// @tandem/core/push-worker: `handlePush(self)` for the app's service worker (docs/push.md): shows one
// notification per message, opens or focuses its page on a click, renews a changed subscription.
// No DOM, no `window`; an app that does not import it ships none of it.
export { handlePush } from '../push-worker/handle-push.js'
export { PUSH_RENEWED } from '../push-worker/renew.js'
export type * from '../push-worker/types.js'
