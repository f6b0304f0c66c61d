import type {
  Conversation,
  ListData,
  MutationStatus,
  PublishResult,
  RealtimeError,
  ServiceResource,
  TandemError,
} from '@tandem/core'
import type { ChannelState, ConnectionState, Member, Message, PublishAck } from '@tandem/realtime'
import { describe, expectTypeOf, it } from 'vitest'
import { useMutation, useResource, useResources } from '../index.js'
import { useChannel, useConnectionState, useMessages, usePresence } from '../realtime.js'

// Nothing here runs: hooks are called only for their types.
describe('hook results', () => {
  it('useMessages', () => {
    const log = useMessages<{ text: string }>('chat:lobby', { event: 'message', initial: 20, paused: false })
    expectTypeOf(log.messages).toEqualTypeOf<readonly Message<{ text: string }>[]>()
    expectTypeOf(log.chunks).toEqualTypeOf<readonly (readonly Message<{ text: string }>[])[]>()
    expectTypeOf(log.count).toEqualTypeOf<number>()
    expectTypeOf(log.hasEarlier).toEqualTypeOf<boolean>()
    expectTypeOf(log.loading).toEqualTypeOf<boolean>()
    expectTypeOf(log.error).toEqualTypeOf<RealtimeError | undefined>()
    expectTypeOf(log.loadEarlier).parameters.toEqualTypeOf<[count?: number]>()
    // @ts-expect-error: `keep` is useChannel's option, not this one's
    useMessages('chat:lobby', { keep: 5 })
  })

  it('useResources and useResource', () => {
    const list = useResources('support/resources', { limit: 10 })
    expectTypeOf(list.items).toEqualTypeOf<ServiceResource[]>()
    expectTypeOf(list.status).toEqualTypeOf<'pending' | 'success' | 'error'>()
    expectTypeOf(list.error).toEqualTypeOf<TandemError | null>()
    expectTypeOf(list.data).toEqualTypeOf<ListData<ServiceResource> | undefined>()
    expectTypeOf(list.hasNextPage).toEqualTypeOf<boolean>()
    expectTypeOf(list.isPlaceholderData).toEqualTypeOf<boolean>()
    expectTypeOf(list.fetchNextPage).returns.toEqualTypeOf<Promise<void>>()

    const names = useResources('support/resources', {}, { select: (d) => d.pages.length })
    expectTypeOf(names.data).toEqualTypeOf<number | undefined>()

    const typed = useResources('support/conversations')
    expectTypeOf(typed.items[0]).toEqualTypeOf<Conversation | undefined>()

    const one = useResource('maps/resources', 'res_1')
    expectTypeOf(one.data).toEqualTypeOf<ServiceResource | undefined>()
    expectTypeOf(one.refetch).returns.toEqualTypeOf<Promise<void>>()
    expectTypeOf(one).not.toHaveProperty('fetchNextPage')
  })

  it('useMutation', () => {
    const m = useMutation((text: string, client) => client.realtime.publish('chat:lobby', 'message', { text }))
    expectTypeOf(m.mutate).toEqualTypeOf<(variables: string) => void>()
    expectTypeOf(m.mutateAsync).toEqualTypeOf<(variables: string) => Promise<PublishResult>>()
    expectTypeOf(m.status).toEqualTypeOf<MutationStatus>()
    expectTypeOf(m.data).toEqualTypeOf<PublishResult | undefined>()
  })

  it('useChannel, usePresence, useConnectionState', () => {
    const chat = useChannel<{ text: string }>('chat:lobby', (m) => expectTypeOf(m.data.text).toEqualTypeOf<string>())
    expectTypeOf(chat.messages).toEqualTypeOf<readonly Message<{ text: string }>[]>()
    expectTypeOf(chat.publish).returns.toEqualTypeOf<Promise<PublishAck>>()
    expectTypeOf(chat.state).toEqualTypeOf<ChannelState>()
    const { members } = usePresence<{ name: string }>('chat:lobby', { name: 'Ada' })
    expectTypeOf(members).toEqualTypeOf<readonly Member<{ name: string }>[]>()
    const link = useConnectionState()
    expectTypeOf(link.state).toEqualTypeOf<ConnectionState>()
    expectTypeOf(link.retryAt).toEqualTypeOf<number | undefined>()
  })
})
