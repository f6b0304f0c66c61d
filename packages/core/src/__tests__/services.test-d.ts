import { describe, expectTypeOf, it } from 'vitest'
import type {
  AddressValidation,
  Article,
  ArticleSummary,
  ChannelInfo,
  ComputedRoute,
  Conversation,
  GeocodeResult,
  HistoryResult,
  Mailbox,
  MapView,
  Page,
  PagePromise,
  Place,
  PresenceMember,
  PublishResult,
  TandemClient,
  Thread,
} from '../index.js'

declare const client: TandemClient

describe('service clients: params and results', () => {
  it('maps', async () => {
    const { results } = await client.maps.geocode({ query: 'Porto' })
    expectTypeOf(results[0]).toEqualTypeOf<GeocodeResult | undefined>() // noUncheckedIndexedAccess
    expectTypeOf(client.maps.geocode({ location: { lat: 1, lng: 2 } })).resolves.toEqualTypeOf<{
      results: GeocodeResult[]
    }>()
    const route = await client.maps.computeRoute({
      origin: { lat: 0, lng: 0 },
      destination: { placeId: 'p' },
      mode: 'walk',
    })
    expectTypeOf(route).toEqualTypeOf<ComputedRoute>()
    expectTypeOf(route.coordinates).toEqualTypeOf<{ lat: number; lng: number }[]>()
    expectTypeOf(client.maps.searchPlaces({ query: 'san' })).toEqualTypeOf<PagePromise<Place>>()
    expectTypeOf(client.maps.validateAddress).returns.resolves.toEqualTypeOf<AddressValidation>()
    expectTypeOf(client.maps.getMapView({ bbox: [-10, 36, 4, 44] })).resolves.toEqualTypeOf<MapView>()
  })

  it('support', async () => {
    const list = client.support.conversations.list({ status: 'active', limit: 5 })
    expectTypeOf(list).toEqualTypeOf<PagePromise<Conversation>>()
    expectTypeOf(await list).toEqualTypeOf<Page<Conversation>>()
    for await (const c of list) expectTypeOf(c.subject).toEqualTypeOf<string>()
    expectTypeOf(client.support.conversations.get('c')).resolves.toEqualTypeOf<Conversation>()
    expectTypeOf(client.support.conversations.reply('c', { text: 'x' })).resolves.toEqualTypeOf<Thread>()
    expectTypeOf(client.support.mailboxes.get('m')).resolves.toEqualTypeOf<Mailbox>()
    expectTypeOf(client.support.docs.get('a')).resolves.toEqualTypeOf<Article>()
    expectTypeOf(client.support.docs.search({ query: 'x' })).toEqualTypeOf<PagePromise<ArticleSummary>>()
  })

  it('realtime REST', () => {
    expectTypeOf(client.realtime.publish('c', 'e', { a: 1 })).resolves.toEqualTypeOf<PublishResult>()
    expectTypeOf(client.realtime.history('c', { limit: 5 })).resolves.toEqualTypeOf<HistoryResult>()
    expectTypeOf(client.realtime.presence('c')).resolves.toEqualTypeOf<{ members: PresenceMember[] }>()
    expectTypeOf(client.realtime.channels({ prefix: 'chat:' })).toEqualTypeOf<PagePromise<ChannelInfo>>()
  })

  it('wrong params do not compile', () => {
    // Never called: each line below must fail to type-check.
    const wrong = () => {
      // @ts-expect-error an unknown status
      void client.support.conversations.list({ status: 'bogus' })
      // @ts-expect-error an unknown travel mode
      void client.maps.computeRoute({ origin: { lat: 0, lng: 0 }, destination: { lat: 1, lng: 1 }, mode: 'fly' })
      // @ts-expect-error the mailbox is required
      void client.support.conversations.create({ subject: 's', customer: { email: 'a@b.c' }, text: 't' })
      // @ts-expect-error a query or a location
      void client.maps.geocode({})
    }
    expectTypeOf(wrong).toBeFunction()
  })
})
