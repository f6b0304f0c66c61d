import type { HelpSearchSnapshot, ThreadSnapshot, UnreadSnapshot } from '@tandem/core/messenger'
import { describe, expectTypeOf, it } from 'vitest'
import {
  useCustomerConversations,
  useCustomerThread,
  useHelpSearch,
  useMessenger,
  useUnreadCount,
} from '../messenger.js'
import type { Messenger } from '@tandem/core/messenger'

// Nothing here runs: hooks are called only for their types.
describe('messenger hooks', () => {
  it('each is its store’s snapshot (with refresh where the store has one)', () => {
    expectTypeOf(useMessenger()).toEqualTypeOf<Messenger>()
    expectTypeOf(useUnreadCount()).toEqualTypeOf<UnreadSnapshot>()
    const list = useCustomerConversations()
    expectTypeOf(list.conversations[0]!.unreadCount).toEqualTypeOf<number>()
    expectTypeOf(list.refresh).toEqualTypeOf<() => Promise<void>>()
    const thread = useCustomerThread(null)
    expectTypeOf(thread).toMatchTypeOf<ThreadSnapshot>()
    expectTypeOf(thread.typingName).toEqualTypeOf<string | null>()
    expectTypeOf(useHelpSearch('export', { debounceMs: 100 })).toEqualTypeOf<HelpSearchSnapshot>()
    // @ts-expect-error: a query is a string
    useHelpSearch(42)
    // @ts-expect-error: not an option of the search
    useHelpSearch('export', { live: true })
  })
})
