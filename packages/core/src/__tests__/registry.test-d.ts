// The collection registry, one line per collection: the path gives the item, the params, the
// item `get` answers and the write bodies, from the contract. Typos and filter values the
// service refuses do not compile.
import { describe, expectTypeOf, it } from 'vitest'
import {
  createClient,
  itemQuery,
  listQuery,
  type Agent,
  type Article,
  type ArticleSummary,
  type ChannelInfo,
  type CollectionPath,
  type Conversation,
  type ConversationCreate,
  type ConversationUpdate,
  type DocCollection,
  type ItemOf,
  type ListSnapshot,
  type Mailbox,
  type Place,
  type ServiceResource,
  type Thread,
} from '../index.js'

const client = createClient({ auth: { url: 'https://app.example/token' } })

describe('the collection registry', () => {
  it('maps every collection path to its item', () => {
    expectTypeOf<ItemOf<'maps/resources'>>().toEqualTypeOf<ServiceResource>()
    expectTypeOf<ItemOf<'support/resources'>>().toEqualTypeOf<ServiceResource>()
    expectTypeOf<ItemOf<'realtime/resources'>>().toEqualTypeOf<ServiceResource>()
    expectTypeOf<ItemOf<'maps/places'>>().toEqualTypeOf<Place>()
    expectTypeOf<ItemOf<'support/mailboxes'>>().toEqualTypeOf<Mailbox>()
    expectTypeOf<ItemOf<'support/agents'>>().toEqualTypeOf<Agent>()
    expectTypeOf<ItemOf<'support/conversations'>>().toEqualTypeOf<Conversation>()
    expectTypeOf<ItemOf<'support/conversations/cnv_1/threads'>>().toEqualTypeOf<Thread>()
    expectTypeOf<ItemOf<'support/docs/collections'>>().toEqualTypeOf<DocCollection>()
    expectTypeOf<ItemOf<'support/docs/articles'>>().toEqualTypeOf<ArticleSummary>()
    expectTypeOf<ItemOf<'realtime/channels'>>().toEqualTypeOf<ChannelInfo>()
  })

  it('a typo in a path is a compile error', () => {
    // @ts-expect-error: not a collection of the contract
    expectTypeOf<ItemOf<'support/conversatoins'>>().toBeNever()
    expectTypeOf<'support/conversatoins'>().not.toExtend<CollectionPath>()
    // @ts-expect-error: not a collection of the contract
    listQuery('support/conversatoins')
    // @ts-expect-error: not a collection of support
    client.collection('support', 'places')
  })

  it("list params are the contract's query parameters", () => {
    listQuery('support/conversations', { status: 'active', tag: 'billing', limit: 10 })
    // @ts-expect-error: the service accepts active, pending and closed
    listQuery('support/conversations', { status: 'bogus' })
    // @ts-expect-error: not a filter of mailboxes
    listQuery('support/mailboxes', { status: 'active' })
    listQuery('maps/places', { type: 'capital', near: '38.7,-9.1' })
    // @ts-expect-error: places are cities or capitals
    listQuery('maps/places', { type: 'village' })
  })

  it('the cache infers from typed queries', async () => {
    const list = await client.cache.fetch(listQuery('support/conversations', { status: 'pending' }))
    expectTypeOf(list).toEqualTypeOf<ListSnapshot<Conversation>>()
    expectTypeOf(list.items[0]!.subject).toEqualTypeOf<string>()
    const article = client.cache.get(itemQuery('support/docs/articles', 'art_1')).getSnapshot().data
    expectTypeOf(article).toEqualTypeOf<Article | undefined>()
  })

  it('client.collection() and the service clients are typed from the same contract', async () => {
    const conversations = client.collection('support', 'conversations')
    const page = await conversations.list({ status: 'closed' })
    expectTypeOf(page.data[0]!.subject).toEqualTypeOf<string>()
    expectTypeOf(conversations.create).parameter(0).toEqualTypeOf<ConversationCreate>()
    expectTypeOf(conversations.update).parameter(1).toEqualTypeOf<ConversationUpdate>()
    // @ts-expect-error: the service accepts active, pending and closed
    void conversations.list({ status: 'bogus' })
    // Read-only collections take no writes.
    expectTypeOf(client.collection('support', 'mailboxes').create).parameter(0).toBeNever()

    const listed = await client.support.conversations.list({ status: 'active' })
    const subject: string = listed.data[0]!.subject
    expectTypeOf(subject).toBeString()
    // @ts-expect-error: `name` is not a field of a conversation
    void listed.data[0]!.name
  })
})
