// The services' data, named: each type is the generated one (src/generated/openapi.ts), so the
// SDK, the hooks and the emulator all hold the shapes the contract states, and nothing else.
import type { Frame as AnyFrame, ClientFrame, ErrorBody, ServerFrame } from './generated/frames.js'
import type { components, operations } from './generated/openapi.js'

type Schemas = components['schemas']

/** An operation's query parameters (what a list accepts), from the contract. */
export type QueryOf<O extends keyof operations> = NonNullable<operations[O]['parameters']['query']>

export type ApiErrorBody = Schemas['Error']
export type ErrorDetail = Schemas['ErrorDetail']
/** A 429's body: `details[0].bucket` names the bucket that refused. */
export type RateLimitedErrorBody = Schemas['RateLimitedError']
export type RateLimitDetail = Schemas['RateLimitDetail']

// Generic collection
export type ServiceResource = Schemas['Resource']
export type ResourceCreate = Schemas['ResourceCreate']
export type ResourceUpdate = Schemas['ResourceUpdate']

// Maps
export type LatLng = Schemas['LatLng']
export type BBox = [west: number, south: number, east: number, north: number]
export type Place = Schemas['Place']
export type GeocodeRequest = Schemas['GeocodeRequest']
export type GeocodeResponse = Schemas['GeocodeResponse']
export type TravelMode = Schemas['TravelMode']
export type Waypoint = Schemas['Waypoint']
export type RouteRequest = Schemas['RouteRequest']
export type RouteLeg = Schemas['RouteLeg']
/** The route as the service sends it (the SDK adds the decoded `coordinates`). */
export type Route = Omit<Schemas['Route'], 'bounds'> & { bounds: BBox }
export type PlaceType = Schemas['PlaceType']
export type PlaceSearchQuery = QueryOf<'searchPlaces'>
export type PlaceSuggestion = Schemas['PlaceSuggestion']
export type PlaceSuggestionKind = PlaceSuggestion['kind']
export type PlaceAutocomplete = Schemas['PlaceAutocomplete']
export type PlaceAutocompleteQuery = QueryOf<'autocompletePlaces'>
export type AddressRequest = Schemas['AddressRequest']
export type AddressComponent = Schemas['AddressComponent']
export type AddressValidation = Schemas['AddressValidation']
export type MapFeature = Schemas['MapFeature']
export type MapView = Omit<Schemas['MapView'], 'bounds'> & { bounds: BBox }

// Support
export type ConversationStatus = Schemas['ConversationStatus']
export type Mailbox = Schemas['Mailbox']
export type Agent = Schemas['Agent']
export type Customer = Schemas['Customer']
export type Conversation = Schemas['Conversation']
export type ConversationCreate = Schemas['ConversationCreate']
export type ConversationUpdate = Schemas['ConversationUpdate']
export type ConversationListQuery = QueryOf<'listConversations'>
export type ThreadType = Schemas['ThreadType']
export type Thread = Schemas['Thread']
export type ThreadAuthor = Thread['author']
export type ReplyCreate = Schemas['ReplyCreate']
export type NoteCreate = Schemas['NoteCreate']
/** A file on a message (docs/uploads.md): `url` is a short-lived signed download link. */
export type Attachment = Schemas['Attachment']
/** Where the customer has read a conversation up to (agents' view; null until they mark it read). */
export type CustomerRead = NonNullable<Conversation['customerRead']>
export type DocCollection = Schemas['DocCollection']
export type Article = Schemas['Article']
export type ArticleSummary = Schemas['ArticleSummary']
export type ArticleListQuery = QueryOf<'listArticles'>

// Support, as a customer sees it (scope `support:customer`)
export type CustomerConversation = Schemas['CustomerConversation']
export type CustomerMessage = Schemas['CustomerMessage']
export type CustomerConversationStart = Schemas['CustomerConversationStart']
export type CustomerMessageCreate = Schemas['CustomerMessageCreate']
export type CustomerProfile = Schemas['CustomerProfile']
export type CustomerTypingCreate = Schemas['CustomerTypingCreate']
export type { CustomerTyping, ResourcePresenceData } from './generated/frames.js'

// Realtime (REST)
export type PublishRequest = Schemas['PublishRequest']
export type PublishResult = Schemas['PublishResult']
export type RealtimeMessage = Schemas['Message']
export type HistoryResult = Schemas['HistoryResult']
export type PresenceMember = Schemas['Member']
export type ChannelInfo = Schemas['ChannelInfo']
export type ChannelListQuery = QueryOf<'listChannels'>

// Web Push (docs/push.md); PushPayload is push.ts's
export type PushPublicKey = Schemas['PushPublicKey']
export type PushSubscriptionCreate = Schemas['PushSubscriptionCreate']
export type PushSubscriptionRenew = Schemas['PushSubscriptionRenew']
/** A registration as the service holds it (not the browser's `PushSubscription`). */
export type PushSubscriptionRecord = Schemas['PushSubscription']
export type PushSubscriptionPage = Schemas['PushSubscriptionPage']

/** A list page, as every list answers. */
export interface Page<T> {
  data: T[]
  nextCursor: string | null
}

// Realtime (socket frames, from asyncapi)
export type { AnyFrame as Frame, ClientFrame, ErrorBody, ServerFrame }
