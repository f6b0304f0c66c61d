// The customer side of support (docs/services/support.md, "Customers"): who a customer is, and
// the one channel each customer may hear. The services, the server's token handler and the SDK
// read these rules from here.

/**
 * The scope that makes a token a customer's: its subject is the customer id, and it may only
 * see that customer's own conversations (`/support/v1/me/...`) and the published docs. It is a
 * role, not a capability: only this exact string makes a customer, never a wider grant
 * (`support` or `*` still make an agent or a server).
 */
export const CUSTOMER_SCOPE = 'support:customer'

/** A customer id (the token's `sub`): 1–128 of `[A-Za-z0-9_.@-]`, so it is safe in a channel name. */
export const CUSTOMER_ID = /^[\w.@-]{1,128}$/
/** The rule in words, for error messages. */
export const CUSTOMER_ID_RULE = 'must be 1-128 characters of A-Z a-z 0-9 _ . @ -'
export const isCustomerId = (value: unknown): value is string => typeof value === 'string' && CUSTOMER_ID.test(value)

/** Whether a token's scope makes it a customer's. */
export const isCustomerScope = (scope: readonly string[]): boolean => scope.includes(CUSTOMER_SCOPE)

/** The prefix of the customers' channels: the service alone publishes on them. */
export const CUSTOMER_CHANNEL_PREFIX = 'support:customer:'
/** The one channel a customer token may subscribe to: its own. */
export const customerChannelName = (customerId: string): string => `${CUSTOMER_CHANNEL_PREFIX}${customerId}`

/** The events of a customer's channel; each `data` is the AsyncAPI message of the same name. */
export const CUSTOMER_EVENTS = {
  /** A new message in one of the customer's conversations (an agent's reply, or the customer's own from another tab). */
  message: 'message',
  /** A conversation's new state: created, status changed, read or unread. */
  conversation: 'conversation',
  /** An agent started or stopped typing in one of the customer's conversations. */
  typing: 'typing',
} as const
export type CustomerEventName = (typeof CUSTOMER_EVENTS)[keyof typeof CUSTOMER_EVENTS]

/**
 * A customer's channel hears at most one `typing` event per conversation per this many ms: the
 * latest state is sent at the end of the interval when it changed within it (a stop is never lost).
 */
export const CUSTOMER_TYPING_INTERVAL_MS = 1000
