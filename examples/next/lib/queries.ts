// The queries both sides name: the server prefetches them, the client components read them, and
// the same params make the same cache entry. (Not in a 'use client' file: a server component would
// get a reference to it, not the value.)
import { itemQuery, listQuery } from '@tandem/core'

export const INBOX_PARAMS = { limit: 20 }
export const THREAD_PARAMS = { limit: 50 }

export const inboxQuery = () => listQuery('support/conversations', INBOX_PARAMS)
export const conversationQuery = (id: string) => itemQuery('support/conversations', id)
export const threadsQuery = (id: string) => listQuery(`support/conversations/${id}/threads`, THREAD_PARAMS)
