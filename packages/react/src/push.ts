// @tandem/react/push: web push of @tandem/core/push as a React binding, an entry of its own so an
// app without push ships none of it.
export { usePush } from './use-push.js'
