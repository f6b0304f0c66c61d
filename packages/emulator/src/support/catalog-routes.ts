// Read-only routes: mailboxes, agents and the docs (collections, articles, search).
import type { RouteHandler } from '../resource-routes.js'
import { parseLimit } from '../resource-store.js'
import type { Route } from '../router.js'
import type { ConversationStore } from './conversation-store.js'
import { offsetPage } from './cursor.js'
import { byTitle, searchArticles, summarize, wordsOf } from './docs-search.js'
import { fail, notFound } from '../validate.js'
import { optionalParam } from './params.js'
import { isCustomer } from '../access.js'
import type { Principal } from '../auth.js'
import type { Article } from './types.js'

const read = (run: RouteHandler['run']): RouteHandler => ({ write: false, run })
/** The docs: a customer may read them too, and sees the published articles only. */
const docs = (run: RouteHandler['run']): RouteHandler => ({ write: false, customers: true, run })

export function catalogRoutes(store: ConversationStore): Route<RouteHandler>[] {
  /** A paged read-only list; the cursor kind keeps one list's cursor out of another. */
  const listOf = <T>(kind: string, items: () => readonly T[]) =>
    read(({ query }) => ({
      status: 200,
      body: offsetPage(items(), parseLimit(query.get('limit')), query.get('cursor') || null, kind),
    }))

  /** An agent sees drafts too; a customer never does (a draft's id is a 404 to them). */
  const articlesFor = (principal: Principal): readonly Article[] =>
    isCustomer(principal) ? store.data.articles.filter((a) => a.published) : store.data.articles

  const collections = docs(({ principal, query }) => {
    const all = store.data.collections
    const items = isCustomer(principal)
      ? all.map((c) => ({ ...c, articleCount: articlesFor(principal).filter((a) => a.collectionId === c.id).length }))
      : all
    return {
      status: 200,
      body: offsetPage(items, parseLimit(query.get('limit')), query.get('cursor') || null, 'col'),
    }
  })

  const articles = docs(({ principal, query }) => {
    const q = optionalParam(query, 'query')
    const collectionId = optionalParam(query, 'collectionId')
    const inCollection = articlesFor(principal).filter(
      (a) => collectionId === undefined || a.collectionId === collectionId,
    )
    // Search answers by relevance; a plain list by title.
    const found = q === undefined ? [...inCollection].sort(byTitle) : searchArticles(inCollection, wordsOf(q))
    const page = offsetPage(found, parseLimit(query.get('limit')), query.get('cursor') || null, 'art')
    return { status: 200, body: { data: page.data.map(summarize), nextCursor: page.nextCursor } }
  })

  return [
    { method: 'GET', pattern: '/v1/mailboxes', handler: listOf('mbx', () => store.data.mailboxes) },
    {
      method: 'GET',
      pattern: '/v1/mailboxes/:id',
      handler: read(({ params }) => ({
        status: 200,
        body: store.data.mailboxes.find((m) => m.id === params.id) ?? fail(notFound('mailbox', params.id ?? '')),
      })),
    },
    { method: 'GET', pattern: '/v1/agents', handler: listOf('agt', () => store.data.agents) },
    { method: 'GET', pattern: '/v1/docs/collections', handler: collections },
    { method: 'GET', pattern: '/v1/docs/articles', handler: articles },
    {
      method: 'GET',
      pattern: '/v1/docs/articles/:id',
      handler: docs(({ principal, params }) => ({
        status: 200,
        body: articlesFor(principal).find((a) => a.id === params.id) ?? fail(notFound('article', params.id ?? '')),
      })),
    },
  ]
}
