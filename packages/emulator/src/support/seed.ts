// Seeded, realistic support data. Everything comes from one seeded faker and a fixed epoch,
// so the same seed always gives the same ids, texts and timestamps (never Date.now()).
import { base, en, Faker } from '@faker-js/faker'
import { DEFAULTS } from './defaults.js'
import { AGENT_REPLIES, BROWSERS, FOLLOW_UPS, MAILBOXES, NOTES, PLANS, TAGS, TOPICS, type Topic } from './seed-text.js'
import { ARTICLE_STEPS, DOC_COLLECTIONS, DRAFT_TITLES } from './seed-docs-text.js'
import type {
  Agent,
  Article,
  Conversation,
  ConversationStatus,
  DocCollection,
  Mailbox,
  SupportData,
  Thread,
  ThreadAuthor,
} from './types.js'

const DAY = 86_400_000
const MINUTE = 60_000

export function createIds(faker: Faker): (prefix: string) => string {
  const used = new Set<string>()
  return (prefix) => {
    for (;;) {
      const id = `${prefix}_${faker.string.alphanumeric({ length: 12, casing: 'lower' })}`
      if (!used.has(id)) {
        used.add(id)
        return id
      }
    }
  }
}

export function newFaker(seed: number): Faker {
  const faker = new Faker({ locale: [en, base] })
  faker.seed(seed)
  return faker
}

export function seedSupport(seed: number): SupportData {
  const faker = newFaker(seed)
  const id = createIds(faker)
  const iso = (ms: number) => new Date(ms).toISOString()
  const { epoch } = DEFAULTS
  const domain = faker.internet.domainName()

  const mailboxes: Mailbox[] = MAILBOXES.map(({ name, slug }) => {
    const createdAt = iso(epoch - faker.number.int({ min: 400, max: 900 }) * DAY)
    return { id: id('mbx'), name, slug, email: `${slug}@${domain}`, createdAt, updatedAt: createdAt }
  })
  const agents: Agent[] = Array.from({ length: DEFAULTS.agents }, () => {
    const firstName = faker.person.firstName()
    const lastName = faker.person.lastName()
    const email = faker.internet.email({ firstName, lastName, provider: domain }).toLowerCase()
    return { id: id('agt'), name: `${firstName} ${lastName}`, email }
  })

  // Start early enough that the last thread (≤ a day apart each) still falls before the epoch.
  const latest = DEFAULTS.maxThreads * 1440 + 60
  const starts = Array.from(
    { length: DEFAULTS.conversations },
    () => epoch - faker.number.int({ min: latest, max: DEFAULTS.spanDays * 1440 }) * MINUTE,
  )
  starts.sort((a, b) => a - b)
  const conversations = starts.map((start, i) => seedConversation(faker, id, i + 1, start, mailboxes, agents))

  const collections: DocCollection[] = []
  const articles: Article[] = []
  for (const c of DOC_COLLECTIONS) {
    const collection = {
      id: id('col'),
      name: c.name,
      slug: slugify(c.name),
      description: c.description,
      // An agent's view: every article, drafts too (a customer's count is of published ones).
      articleCount: c.titles.length,
    }
    collections.push(collection)
    for (const title of c.titles) {
      const created = epoch - faker.number.int({ min: 200, max: 700 }) * DAY
      const updated = Math.min(epoch, created + faker.number.int({ min: 0, max: 150 }) * DAY)
      const steps = faker.helpers.arrayElements(ARTICLE_STEPS, { min: 3, max: 5 })
      const text = `${title}: this guide walks you through it step by step.\n\n${steps.map((s, n) => `${n + 1}. ${s}`).join('\n')}\n\n${faker.company.catchPhrase()}.`
      const keywords = [...new Set(title.toLowerCase().match(/[a-z0-9]{4,}/g) ?? [])]
      articles.push({
        id: id('art'),
        collectionId: collection.id,
        title,
        slug: slugify(title),
        published: !DRAFT_TITLES.has(title),
        keywords,
        text,
        createdAt: iso(created),
        updatedAt: iso(updated),
      })
    }
  }
  return { mailboxes, agents, tags: [...TAGS], conversations, collections, articles }
}

function seedConversation(
  faker: Faker,
  id: (prefix: string) => string,
  number: number,
  start: number,
  mailboxes: Mailbox[],
  agents: Agent[],
): SupportData['conversations'][number] {
  const topic = faker.helpers.arrayElement(TOPICS)
  const vars: Record<string, string> = {
    product: faker.commerce.productName(),
    order: String(faker.number.int({ min: 10_000, max: 99_999 })),
    plan: faker.helpers.arrayElement(PLANS),
    browser: faker.helpers.arrayElement(BROWSERS),
    n: String(faker.number.int({ min: 2, max: 500 })),
  }
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_, key: string) => vars[key] ?? key)
  const firstName = faker.person.firstName()
  const lastName = faker.person.lastName()
  // The id comes from the number, not the faker, so the rest of the seed stays as it was.
  const customer = {
    id: `cus_${number}`,
    email: faker.internet.email({ firstName, lastName }).toLowerCase(),
    name: `${firstName} ${lastName}`,
  }
  const assignee = faker.datatype.boolean(0.75) ? faker.helpers.arrayElement(agents) : null
  const status = faker.helpers.weightedArrayElement<ConversationStatus>([
    { weight: 45, value: 'closed' },
    { weight: 35, value: 'active' },
    { weight: 20, value: 'pending' },
  ])
  const conversationId = id('cnv')
  const customerAuthor: ThreadAuthor = { type: 'customer', id: customer.id, name: customer.name, email: customer.email }

  const threads: Thread[] = []
  let at = start
  const count = faker.number.int({ min: 1, max: DEFAULTS.maxThreads })
  for (let i = 0; i < count; i++) {
    const previous = threads[i - 1]?.type
    const type: Thread['type'] =
      i === 0
        ? 'customer'
        : previous === 'customer'
          ? faker.datatype.boolean(0.8)
            ? 'reply'
            : 'note'
          : previous === 'reply'
            ? faker.datatype.boolean(0.75)
              ? 'customer'
              : 'note'
            : 'reply'
    const agent = assignee ?? faker.helpers.arrayElement(agents)
    const text =
      type === 'customer'
        ? i === 0
          ? topic.message
          : faker.helpers.arrayElement(FOLLOW_UPS)
        : type === 'reply'
          ? threads.some((t) => t.type === 'reply')
            ? faker.helpers.arrayElement(AGENT_REPLIES)
            : topic.reply
          : faker.helpers.arrayElement(NOTES)
    const author: ThreadAuthor =
      type === 'customer' ? customerAuthor : { type: 'agent', id: agent.id, name: agent.name, email: agent.email }
    threads.push({
      id: id('thr'),
      conversationId,
      type,
      author,
      text: fill(text),
      attachments: [],
      createdAt: new Date(at).toISOString(),
    })
    at += faker.number.int({ min: 5, max: 1440 }) * MINUTE
  }
  const last = threads[threads.length - 1]
  const modifiedAt = last?.createdAt ?? new Date(start).toISOString()
  const tags = [...new Set([...topic.tags, ...faker.helpers.arrayElements(TAGS, { min: 0, max: 2 })])]
  const conversation: Conversation = {
    id: conversationId,
    number,
    mailboxId: mailboxFor(faker, topic, mailboxes).id,
    subject: fill(topic.subject),
    preview: previewOf(threads),
    status,
    customer,
    assigneeId: assignee?.id ?? null,
    tags,
    threadCount: threads.length,
    createdAt: new Date(start).toISOString(),
    modifiedAt,
    closedAt: status === 'closed' ? modifiedAt : null,
    customerRead: null,
  }
  return { conversation, threads }
}

/** Billing questions land in Billing, sales questions in Sales, and so on; a few stray. */
function mailboxFor(faker: Faker, topic: Topic, mailboxes: Mailbox[]): Mailbox {
  const slug = topic.tags.some((t) => ['billing', 'refund', 'invoice'].includes(t))
    ? 'billing'
    : topic.tags.some((t) => ['pricing', 'trial', 'upgrade'].includes(t))
      ? 'sales'
      : topic.subject.startsWith('Partnership')
        ? 'partners'
        : 'support'
  const home = mailboxes.find((m) => m.slug === slug)
  return faker.datatype.boolean(0.1) || !home ? faker.helpers.arrayElement(mailboxes) : home
}

export function previewOf(threads: readonly Thread[]): string {
  // ES2022 has no findLast.
  const latest = [...threads].reverse().find((t) => t.type !== 'note')
  // A message of files alone reads as its files' names.
  const said = latest?.text.trim() ? latest.text : (latest?.attachments.map((a) => a.name).join(', ') ?? '')
  const text = said.replace(/\s+/g, ' ').trim()
  return text.length > DEFAULTS.previewLength ? `${text.slice(0, DEFAULTS.previewLength - 1)}…` : text
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}
