// @tandem/react/messenger: the customer side of support as hooks, over `messenger(client)` of
// @tandem/core/messenger. Pass the messenger to <MessengerProvider messenger={…}>.
export { MessengerProvider, useMessenger } from './use-messenger.js'
export type { MessengerProviderProps } from './use-messenger.js'
export { useCustomerConversations, useCustomerThread, useUnreadCount } from './use-customer-stores.js'
export type { CustomerConversationsResult, CustomerThreadResult } from './use-customer-stores.js'
export { useHelpSearch } from './use-help-search.js'
