// The customer's REST paths (/support/v1/me/...): only a token with the `support:customer` scope
// may call them, and each answers that customer's own data (another's conversation is a 404).
import type { Schema } from './helpers.js'
import { op, p, PAGE } from './operations.js'

const TAG = 'customers'

export const customerPaths: Record<string, Schema> = {
  '/support/v1/me': {
    get: op('getMe', TAG, 'The customer: who the token says, and the unread count', {
      answers: { 200: 'CustomerProfile' },
    }),
  },
  '/support/v1/me/conversations': {
    get: op('listMyConversations', TAG, 'The customer’s conversations, most recently modified first', {
      parameters: PAGE,
      answers: { 200: 'CustomerConversationPage' },
    }),
    post: op('startConversation', TAG, 'Start a conversation', {
      body: 'CustomerConversationStart',
      write: true,
      answers: { 201: 'CustomerConversation' },
    }),
  },
  '/support/v1/me/conversations/{id}': {
    parameters: [p('id')],
    get: op('getMyConversation', TAG, 'One of the customer’s conversations', {
      answers: { 200: 'CustomerConversation' },
    }),
  },
  '/support/v1/me/conversations/{id}/messages': {
    parameters: [p('id')],
    get: op('listMyMessages', TAG, 'A conversation’s messages, oldest first (never an internal note)', {
      parameters: PAGE,
      answers: { 200: 'CustomerMessagePage' },
    }),
    post: op('sendMyMessage', TAG, 'Reply as the customer (reopens a closed conversation)', {
      body: 'CustomerMessageCreate',
      write: true,
      answers: { 201: 'CustomerMessage' },
    }),
  },
  '/support/v1/me/conversations/{id}/typing': {
    parameters: [p('id')],
    post: op('setMyTyping', TAG, 'Say the customer is typing, or has stopped', {
      description:
        'Agents see it on the resource-presence channel `support:conversations:presence`: the service enters a ' +
        'member for the customer (clientId `customer:<customerId>`, data `ResourcePresenceData` with the ' +
        'conversation in `typing`), drops the conversation on `typing: false` and on its own ' +
        '`CUSTOMER_TYPING_TTL_MS` (5 s) after the last `typing: true`. The customer’s rate limit applies.',
      body: 'CustomerTypingCreate',
      ephemeral: true,
      answers: { 204: null },
    }),
  },
  '/support/v1/me/conversations/{id}/read': {
    parameters: [p('id')],
    post: op('markMyConversationRead', TAG, 'Mark every message read', {
      description: 'Agents see where the customer has read up to in the conversation’s `customerRead`.',
      write: true,
      answers: { 200: 'CustomerConversation' },
    }),
  },
}
