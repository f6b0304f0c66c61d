import {
  CUSTOMER_CONVERSATION_FIELDS,
  CUSTOMER_MESSAGE_FIELDS,
  CUSTOMER_TYPING_FIELDS,
  hasFields,
  type CustomerConversation,
  type CustomerMessage,
  type CustomerTyping,
} from '@tandem/contract'

// The customer channel's payloads (asyncapi.json, channel `customer`), checked before anything
// reads them: a push is data from the network, never cast. The lines are the contract's (the same
// the REST answers of the same shapes are checked against).

export const isCustomerMessage = (v: unknown): v is CustomerMessage => hasFields(v, CUSTOMER_MESSAGE_FIELDS)

export const isCustomerConversation = (v: unknown): v is CustomerConversation =>
  hasFields(v, CUSTOMER_CONVERSATION_FIELDS)

export const isCustomerTyping = (v: unknown): v is CustomerTyping => hasFields(v, CUSTOMER_TYPING_FIELDS)
