import {
  CONVERSATION_STATUSES,
  type CustomerConversation,
  type CustomerMessage,
  type CustomerTyping,
} from '@tandem/contract'

// The customer channel's payloads (asyncapi.json, channel `customer`), checked field by field
// before anything reads them: a push is data from the network, never cast.

type Fields = Record<string, unknown>
const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v)
const isString = (v: unknown): v is string => typeof v === 'string'
const isDate = (v: unknown) => isString(v) && !Number.isNaN(Date.parse(v))
const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0
const isName = (v: unknown) => v === null || isString(v)

export function isCustomerMessage(v: unknown): v is CustomerMessage {
  return (
    isObject(v) &&
    isString(v.id) &&
    isString(v.conversationId) &&
    isObject(v.author) &&
    (v.author.type === 'customer' || v.author.type === 'agent') &&
    isName(v.author.name) &&
    isString(v.text) &&
    isDate(v.createdAt)
  )
}

export function isCustomerConversation(v: unknown): v is CustomerConversation {
  return (
    isObject(v) &&
    isString(v.id) &&
    isString(v.subject) &&
    CONVERSATION_STATUSES.includes(v.status as CustomerConversation['status']) &&
    isString(v.preview) &&
    isCount(v.messageCount) &&
    isCount(v.unreadCount) &&
    isDate(v.createdAt) &&
    isDate(v.modifiedAt) &&
    (v.closedAt === null || isDate(v.closedAt))
  )
}

export function isCustomerTyping(v: unknown): v is CustomerTyping {
  return isObject(v) && isString(v.conversationId) && typeof v.typing === 'boolean' && isName(v.name)
}
