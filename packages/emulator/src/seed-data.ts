// Deterministic, realistic-looking resources for each service, derived from one seed.
import { DEFAULTS } from './defaults.js'
import { intBetween, mulberry32, pick, type Random } from './prng.js'
import type { Resource, Service } from './shared-types.js'

export const ID_PREFIX: Record<Service, string> = { maps: 'map', support: 'sup', realtime: 'rt' }

export function resourceId(service: Service, seq: number): string {
  return `res_${ID_PREFIX[service]}_${seq}`
}

const CITIES = [
  'Lisbon',
  'Porto',
  'Oslo',
  'Kyoto',
  'Austin',
  'Lyon',
  'Ghent',
  'Cork',
  'Turin',
  'Quebec',
  'Tartu',
  'Valencia',
]
const PLACE_ADJ = [
  'Harbor',
  'Old Town',
  'Riverside',
  'Hilltop',
  'Central',
  'Market',
  'Garden',
  'Station',
  'Lakeside',
  'North Gate',
]
const PLACE_KIND = [
  'Cafe',
  'Bakery',
  'Library',
  'Museum',
  'Park',
  'Pharmacy',
  'Bookshop',
  'Bike Repair',
  'Tram Stop',
  'Gallery',
  'Market Hall',
  'Bistro',
]
const CATEGORIES: Record<string, string> = {
  Cafe: 'food',
  Bakery: 'food',
  Bistro: 'food',
  'Market Hall': 'food',
  Library: 'culture',
  Museum: 'culture',
  Gallery: 'culture',
  Park: 'outdoors',
  Pharmacy: 'health',
  Bookshop: 'shopping',
  'Bike Repair': 'services',
  'Tram Stop': 'transit',
}
const TOPIC = [
  'Refund request',
  'Cannot reset password',
  'Invoice missing',
  'Shipping delay',
  'Account locked',
  'Upgrade plan question',
  'Bug report',
  'Data export request',
  'Two-factor setup help',
  'Cancel subscription',
  'Wrong item received',
  'API rate limit question',
]
const TOPIC_TAIL = ['for order', 'on ticket', 'from customer', 'regarding account']
const STATUSES = ['open', 'pending', 'solved', 'closed']
const PRIORITIES = ['low', 'normal', 'high', 'urgent']
const CHANNEL_PREFIX = ['chat', 'team', 'ops', 'game', 'support', 'events']
const CHANNEL_NAME = [
  'lobby',
  'general',
  'alerts',
  'deploys',
  'random',
  'design',
  'match',
  'announcements',
  'oncall',
  'feedback',
]

/** 2024-01-01T00:00:00Z: seeded timestamps are fixed so snapshots stay stable. */
const EPOCH = Date.UTC(2024, 0, 1)

function seededOne(
  service: Service,
  seq: number,
  random: Random,
): Omit<Resource, 'id' | 'service' | 'createdAt' | 'updatedAt'> {
  switch (service) {
    case 'maps': {
      const kind = pick(random, PLACE_KIND)
      const city = pick(random, CITIES)
      return {
        name: `${pick(random, PLACE_ADJ)} ${kind}, ${city}`,
        attributes: {
          category: CATEGORIES[kind] ?? 'other',
          city,
          lat: Math.round((random() * 140 - 70) * 1e5) / 1e5,
          lng: Math.round((random() * 360 - 180) * 1e5) / 1e5,
          rating: Math.round((3 + random() * 2) * 10) / 10,
        },
      }
    }
    case 'support':
      return {
        name: `${pick(random, TOPIC)} ${pick(random, TOPIC_TAIL)} #${intBetween(random, 1000, 9999)}`,
        attributes: {
          status: pick(random, STATUSES),
          priority: pick(random, PRIORITIES),
          mailbox: pick(random, ['billing', 'technical', 'general']),
          messages: intBetween(random, 1, 12),
        },
      }
    case 'realtime':
      return {
        name: `${pick(random, CHANNEL_PREFIX)}:${pick(random, CHANNEL_NAME)}-${seq}`,
        attributes: {
          visibility: pick(random, ['public', 'private']),
          members: intBetween(random, 1, 500),
          historySize: pick(random, [50, 100, 500]),
        },
      }
  }
}

/** `count` resources for `service`, in creation order, identical for the same seed. */
export function seedResources(service: Service, seed: number, count: number = DEFAULTS.seededPerService): Resource[] {
  // Each service gets its own stream so adding one service's fields never shifts another's.
  const random = mulberry32((seed >>> 0) ^ hash(service))
  const out: Resource[] = []
  let time = EPOCH
  for (let seq = 1; seq <= count; seq++) {
    time += intBetween(random, 1, 180) * 60_000
    const at = new Date(time).toISOString()
    out.push({
      id: resourceId(service, seq),
      service,
      ...seededOne(service, seq, random),
      createdAt: at,
      updatedAt: at,
    })
  }
  return out
}

function hash(text: string): number {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return h >>> 0
}
