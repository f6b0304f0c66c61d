// @tandem/core/messenger: `messenger(client)`, the customer side of support (a token with the
// `support:customer` scope): the customer's conversations, replies, read marks, the published
// docs, and live stores fed by the customer's own channel.
export { messenger } from '../messenger/messenger.js'
export type * from '../messenger/types.js'
