// Every field an answer line names exists in the TypeScript type of that answer (the types come
// from openapi-typescript and json-schema-to-typescript, the lines from scripts/answer-fields.mjs:
// two generators, held to each other). `npm run typecheck` checks it.
import { expectTypeOf, it } from 'vitest'
import type * as L from '../generated/answer-fields.js'
import type { Collections, ItemOf, OneOf } from '../collections.js'
import type * as T from '../types.js'

type Fields<Line extends string> = Line extends `${infer F} ${infer Rest}` ? F | Fields<Rest> : Line
type PathOf<F extends string> = F extends `${infer P}:${string}` ? (P extends `${infer Q}?` ? Q : P) : never
type Item<A> = NonNullable<A> extends readonly (infer E)[] ? E : never
/** `a`, `a[]`, `a[][]` of `T`: the field, then an item per `[]`; `never` when there is none. */
type Segment<T, S extends string> = S extends `${infer Name}[]${infer More}`
  ? Segment<{ x: Item<Segment<T, Name>> }, `x${More}`>
  : S extends keyof NonNullable<T>
    ? NonNullable<T>[S]
    : never
type At<T, P extends string> = P extends `${infer Head}.${infer Rest}` ? At<Segment<T, Head>, Rest> : Segment<T, P>
/** The fields of `Line` that `T` does not have (`never` when it has all). */
type Missing<Line extends string, T> = {
  [F in Fields<Line>]: [At<T, PathOf<F>>] extends [never] ? F : never
}[Fields<Line>]

type Page<I> = T.Page<I>

it('each answer line names only fields of its type', () => {
  expectTypeOf<Missing<typeof L.PLACE_AUTOCOMPLETE_FIELDS, T.PlaceAutocomplete>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.PLACE_SUGGESTION_FIELDS, T.PlaceSuggestion>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.GEOCODE_RESPONSE_FIELDS, T.GeocodeResponse>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.ROUTE_FIELDS, T.Route>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.PLACE_PAGE_FIELDS, Page<T.Place>>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.ADDRESS_VALIDATION_FIELDS, T.AddressValidation>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.MAP_VIEW_FIELDS, T.MapView>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.RESOURCE_FIELDS, T.ServiceResource>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.RESOURCE_PAGE_FIELDS, Page<T.ServiceResource>>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.MAILBOX_FIELDS, T.Mailbox>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.MAILBOX_PAGE_FIELDS, Page<T.Mailbox>>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.AGENT_PAGE_FIELDS, Page<T.Agent>>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.CONVERSATION_FIELDS, T.Conversation>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.CONVERSATION_PAGE_FIELDS, Page<T.Conversation>>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.THREAD_FIELDS, T.Thread>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.THREAD_PAGE_FIELDS, Page<T.Thread>>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.CUSTOMER_PROFILE_FIELDS, T.CustomerProfile>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.CUSTOMER_CONVERSATION_FIELDS, T.CustomerConversation>>().toEqualTypeOf<never>()
  expectTypeOf<
    Missing<typeof L.CUSTOMER_CONVERSATION_PAGE_FIELDS, Page<T.CustomerConversation>>
  >().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.CUSTOMER_MESSAGE_FIELDS, T.CustomerMessage>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.CUSTOMER_MESSAGE_PAGE_FIELDS, Page<T.CustomerMessage>>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.CUSTOMER_TYPING_FIELDS, T.CustomerTyping>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.RESOURCE_PRESENCE_DATA_FIELDS, T.ResourcePresenceData>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.DOC_COLLECTION_PAGE_FIELDS, Page<T.DocCollection>>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.ARTICLE_FIELDS, T.Article>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.ARTICLE_SUMMARY_PAGE_FIELDS, Page<T.ArticleSummary>>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.PUBLISH_RESULT_FIELDS, T.PublishResult>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.HISTORY_RESULT_FIELDS, T.HistoryResult>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.PRESENCE_RESULT_FIELDS, { members: T.PresenceMember[] }>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.CHANNEL_PAGE_FIELDS, Page<T.ChannelInfo>>>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.PAGE_FIELDS, Page<unknown>>>().toEqualTypeOf<never>()
})

it("each collection's item line names only fields of ItemOf<P>", () => {
  type ItemMissing = { [P in keyof Collections]: Missing<(typeof L.ITEM_FIELDS)[P], ItemOf<P>> }[keyof Collections]
  expectTypeOf<ItemMissing>().toEqualTypeOf<never>()
  expectTypeOf<Missing<typeof L.THREAD_FIELDS, ItemOf<'support/conversations/cnv_1/threads'>>>().toEqualTypeOf<never>()
  type OneMissing = {
    [P in keyof typeof L.ONE_FIELDS]: Missing<(typeof L.ONE_FIELDS)[P], OneOf<P>>
  }[keyof typeof L.ONE_FIELDS]
  expectTypeOf<OneMissing>().toEqualTypeOf<never>()
})

it('the check can fail: a field the type lacks is named', () => {
  expectTypeOf<Missing<'id:string nope:int0 author.nope:string', T.CustomerMessage>>().toEqualTypeOf<
    'nope:int0' | 'author.nope:string'
  >()
  expectTypeOf<
    Missing<'suggestions[].nope?:string', T.PlaceAutocomplete>
  >().toEqualTypeOf<'suggestions[].nope?:string'>()
  expectTypeOf<Missing<'bounds[]:number bounds[][]:number', T.MapView>>().toEqualTypeOf<'bounds[][]:number'>()
})
