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
import { collection, type Client } from '../entries/client.js'
import { computeRoute, geocode, getMapView, searchPlaces, validateAddress, type MapsService } from '../entries/maps.js'

declare const client: TandemClient
declare const modular: Client

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

  it('maps calls as functions: the same params and results as the methods, for either client', () => {
    for (const c of [client, modular]) {
      expectTypeOf(geocode(c, { query: 'Porto' })).toEqualTypeOf<ReturnType<MapsService['geocode']>>()
      expectTypeOf(geocode(c, { location: { lat: 1, lng: 2 } }, { timeoutMs: 5_000 })).resolves.toEqualTypeOf<{
        results: GeocodeResult[]
      }>()
      expectTypeOf(
        computeRoute(c, { origin: { lat: 0, lng: 0 }, destination: { placeId: 'p' }, mode: 'walk' }),
      ).resolves.toEqualTypeOf<ComputedRoute>()
      expectTypeOf(searchPlaces(c)).toEqualTypeOf<PagePromise<Place>>()
      expectTypeOf(searchPlaces(c, { type: 'capital', limit: 10 })).toEqualTypeOf<PagePromise<Place>>()
      expectTypeOf(
        validateAddress(c, { regionCode: 'PT', addressLines: ['x'] }),
      ).resolves.toEqualTypeOf<AddressValidation>()
      expectTypeOf(getMapView(c, { center: { lat: 0, lng: 0 }, zoom: 3 })).resolves.toEqualTypeOf<MapView>()
    }
    // @ts-expect-error: travel modes are the contract's
    void computeRoute(modular, { origin: { lat: 0, lng: 0 }, destination: { lat: 1, lng: 1 }, mode: 'fly' })
    // @ts-expect-error: the client comes first
    void geocode({ query: 'Porto' })
    // @ts-expect-error: not a client
    void geocode({}, { query: 'Porto' })
  })

  it('collections: a method of the full client, a function for the modular one', () => {
    expectTypeOf(collection(modular, 'support', 'conversations')).toEqualTypeOf(
      client.collection('support', 'conversations'),
    )
    // @ts-expect-error: the modular client has no collection method (it would keep one in every bundle)
    void modular.collection
    // @ts-expect-error: not a collection of support
    void collection(modular, 'support', 'places')
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
