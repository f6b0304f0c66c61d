// The typed collection registry: each collection path (`<service>/<collection>`) with its item,
// its list params, the item one `get` answers, and its create and update bodies, all from the
// contract. `useResources`, `useResource`, `client.collection()` and the cache's query builders
// infer from it, so a misspelt path or a filter value the service refuses does not compile.
import type {
  Agent,
  Article,
  ArticleListQuery,
  ArticleSummary,
  ChannelInfo,
  ChannelListQuery,
  Conversation,
  ConversationCreate,
  ConversationListQuery,
  ConversationUpdate,
  DocCollection,
  Mailbox,
  Place,
  PlaceSearchQuery,
  QueryOf,
  ResourceCreate,
  ResourceUpdate,
  ServiceResource,
  Thread,
} from './types.js'
import type { ServiceName } from './wire.js'

/** One collection's types. */
export interface CollectionTypes<Item, Params, One = Item, Create = never, Update = never> {
  item: Item
  params: Params
  one: One
  create: Create
  update: Update
}

type PageQuery = QueryOf<'listMailboxes'>
type Resources = CollectionTypes<ServiceResource, PageQuery, ServiceResource, ResourceCreate, ResourceUpdate>

export interface Collections {
  'maps/resources': Resources
  'support/resources': Resources
  'realtime/resources': Resources
  'maps/places': CollectionTypes<Place, PlaceSearchQuery>
  'support/mailboxes': CollectionTypes<Mailbox, PageQuery>
  'support/agents': CollectionTypes<Agent, PageQuery>
  'support/conversations': CollectionTypes<
    Conversation,
    ConversationListQuery,
    Conversation,
    ConversationCreate,
    ConversationUpdate
  >
  'support/docs/collections': CollectionTypes<DocCollection, PageQuery>
  'support/docs/articles': CollectionTypes<ArticleSummary, ArticleListQuery, Article>
  'realtime/channels': CollectionTypes<ChannelInfo, ChannelListQuery>
}

/** A conversation's threads: `support/conversations/<id>/threads`. */
export type ThreadsPath = `support/conversations/${string}/threads`

/** Every collection path the services have. */
export type CollectionPath = keyof Collections | ThreadsPath

type TypesOf<P extends CollectionPath> = P extends keyof Collections
  ? Collections[P]
  : P extends ThreadsPath
    ? CollectionTypes<Thread, PageQuery>
    : never

/** What a list of `P` holds. */
export type ItemOf<P extends CollectionPath> = TypesOf<P>['item']
/** What a list of `P` accepts: the contract's query parameters, so a wrong filter value does not compile. */
export type ParamsOf<P extends CollectionPath> = TypesOf<P>['params']
/** What `get(id)` on `P` answers (an article's full text, where the list has summaries). */
export type OneOf<P extends CollectionPath> = TypesOf<P>['one']
export type CreateOf<P extends CollectionPath> = TypesOf<P>['create']
export type UpdateOf<P extends CollectionPath> = TypesOf<P>['update']

/** The collection names of one service (`conversations` for `support`). */
export type CollectionName<S extends ServiceName> = CollectionPath extends infer P
  ? P extends `${S}/${infer N}`
    ? N
    : never
  : never
