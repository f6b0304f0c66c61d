// The shapes of the three services, as JSON Schema 2020-12 (what OpenAPI 3.1 uses). Written by
// hand, once: openapi.ts and asyncapi.ts place them; scripts/generate.mjs writes the published
// JSON documents and the TypeScript types every package imports. Limits come from wire.ts.
import { CHANNEL_NAME, CONVERSATION_STATUSES, LIMITS, PLACE_TYPES, SERVICES, TRAVEL_MODES } from '../wire.js'

/** A JSON Schema (or OpenAPI) object, loosely typed: the linter and ajv check the documents. */
export type Schema = Record<string, unknown>
//
// Response objects are closed (`additionalProperties: false`): a field the contract does not
// name fails the emulator's conformance tests instead of drifting in unnoticed.

/** A closed object; every property is required unless named in `optional`. */
export function object(properties: Record<string, Schema>, optional: string[] = [], extra: Schema = {}): Schema {
  const required = Object.keys(properties).filter((name) => !optional.includes(name))
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false, ...extra }
}
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })
export const string = (extra: Schema = {}): Schema => ({ type: 'string', ...extra })
export const integer = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra })
export const number = (extra: Schema = {}): Schema => ({ type: 'number', ...extra })
export const boolean: Schema = { type: 'boolean' }
export const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type, 'null'] })
export const array = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra })
export const dateTime: Schema = string({ format: 'date-time' })
export const page = (item: string, description: string): Schema =>
  object(
    { data: array(ref(item)), nextCursor: nullable(string({ description: 'Opaque; null after the last page.' })) },
    [],
    { description },
  )

/** Any JSON value. */
export const anyJson: Schema = { description: 'Any JSON value.' }

export const common: Record<string, Schema> = {
  ErrorDetail: {
    type: 'object',
    description: 'One problem: `field` names the input (`customer.email`) where there is one.',
    properties: { field: string(), message: string() },
    additionalProperties: true,
  },
  Error: object(
    {
      error: object(
        {
          code: string({ description: 'Stable, machine-readable (`invalid_parameter`, `not_found`, …).' }),
          message: string(),
          status: integer({ minimum: 400, maximum: 599 }),
          requestId: string(),
          details: array(ref('ErrorDetail')),
        },
        ['details'],
      ),
    },
    [],
    { description: 'Every error answer.' },
  ),
  ServiceName: string({ enum: [...SERVICES] }),
  Resource: object(
    {
      id: string({ pattern: '^res_' }),
      name: string(),
      service: ref('ServiceName'),
      attributes: { type: 'object', additionalProperties: true },
      createdAt: dateTime,
      updatedAt: dateTime,
    },
    [],
    { description: 'An item of the generic collection every service offers.' },
  ),
  ResourcePage: page('Resource', 'Resources, oldest first.'),
  ResourceCreate: object(
    {
      name: string({ minLength: 1, maxLength: LIMITS.resourceName }),
      attributes: { type: 'object', additionalProperties: true },
    },
    ['attributes'],
  ),
  ResourceUpdate: object(
    {
      name: string({ minLength: 1, maxLength: LIMITS.resourceName }),
      attributes: { type: 'object', additionalProperties: true },
    },
    ['name', 'attributes'],
  ),
}

export const maps: Record<string, Schema> = {
  LatLng: object({ lat: number({ minimum: -90, maximum: 90 }), lng: number({ minimum: -180, maximum: 180 }) }),
  BBox: array(number(), {
    minItems: 4,
    maxItems: 4,
    description: 'GeoJSON order: west, south, east, north (west > east crosses the antimeridian).',
  }),
  Place: object(
    {
      name: string(),
      formattedAddress: string(),
      location: ref('LatLng'),
      countryCode: string({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' }),
      placeId: string({ description: 'Usable as a route stop: `{ placeId }`.' }),
      types: array(string({ enum: ['city', 'capital', 'country'] })),
      population: integer({ minimum: 0 }),
      distanceMeters: number({ minimum: 0, description: 'From the point asked about, or from `near`.' }),
    },
    ['population', 'distanceMeters'],
  ),
  GeocodeRequest: {
    oneOf: [object({ query: string({ minLength: 1, maxLength: LIMITS.query }) }), object({ location: ref('LatLng') })],
  },
  GeocodeResponse: object({ results: array(ref('Place'), { maxItems: LIMITS.geocodeResults }) }),
  TravelMode: string({ enum: [...TRAVEL_MODES] }),
  Waypoint: { oneOf: [ref('LatLng'), object({ placeId: string({ minLength: 1 }) })] },
  RouteRequest: object(
    {
      origin: ref('Waypoint'),
      destination: ref('Waypoint'),
      waypoints: array(ref('Waypoint'), { maxItems: LIMITS.waypoints }),
      mode: ref('TravelMode'),
    },
    ['waypoints'],
  ),
  RouteLeg: object({
    distanceMeters: number({ minimum: 0 }),
    durationSeconds: number({ minimum: 0 }),
    start: ref('LatLng'),
    end: ref('LatLng'),
  }),
  Route: object({
    mode: ref('TravelMode'),
    distanceMeters: number({ minimum: 0 }),
    durationSeconds: number({ minimum: 0 }),
    polyline: string({ description: 'Google encoded polyline, precision 5.' }),
    legs: array(ref('RouteLeg')),
    bounds: ref('BBox'),
  }),
  PlaceType: string({ enum: [...PLACE_TYPES] }),
  PlacePage: page('Place', 'Places: the biggest first, or the nearest with `near`.'),
  AddressRequest: object(
    {
      regionCode: string({ pattern: '^[A-Za-z]{2}$' }),
      addressLines: array(string({ maxLength: LIMITS.addressLine }), { minItems: 1, maxItems: LIMITS.addressLines }),
      locality: string({ maxLength: LIMITS.personName }),
      postalCode: string({ maxLength: LIMITS.postalCode }),
    },
    ['locality', 'postalCode'],
  ),
  AddressComponent: object(
    {
      type: string({ enum: ['address_line', 'locality', 'postal_code', 'country'] }),
      text: string({ description: 'As corrected when `fixed`.' }),
      confirmation: string({ enum: ['confirmed', 'unconfirmed', 'fixed', 'missing'] }),
      issue: string(),
    },
    ['issue'],
  ),
  AddressValidation: object(
    {
      verdict: object({ complete: boolean, hasUnconfirmedComponents: boolean, needsFixes: boolean }),
      address: object({ formattedAddress: string(), components: array(ref('AddressComponent')) }),
      geocode: object({ location: ref('LatLng'), placeId: string() }),
    },
    ['geocode'],
  ),
  MapFeature: object({
    type: string({ const: 'Feature' }),
    id: string(),
    properties: object(
      {
        kind: string({ enum: ['country', 'city'] }),
        name: string(),
        countryCode: string(),
        placeId: string(),
        population: integer({ minimum: 0 }),
        capital: boolean,
      },
      ['placeId', 'population', 'capital'],
    ),
    geometry: {
      oneOf: [
        object({ type: string({ const: 'Point' }), coordinates: array(number(), { minItems: 2, maxItems: 2 }) }),
        object({ type: string({ const: 'Polygon' }), coordinates: array(array(array(number()))) }),
        object({ type: string({ const: 'MultiPolygon' }), coordinates: array(array(array(array(number())))) }),
      ],
    },
  }),
  MapView: object({
    bounds: ref('BBox'),
    zoom: number({ minimum: LIMITS.zoom.min, maximum: LIMITS.zoom.max }),
    features: object({ type: string({ const: 'FeatureCollection' }), features: array(ref('MapFeature')) }),
  }),
}

const status = ref('ConversationStatus')
export const support: Record<string, Schema> = {
  ConversationStatus: string({ enum: [...CONVERSATION_STATUSES] }),
  Mailbox: object({
    id: string({ pattern: '^mbx_' }),
    name: string(),
    slug: string(),
    email: string(),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  MailboxPage: page('Mailbox', 'Mailboxes.'),
  Agent: object({ id: string({ pattern: '^agt_' }), name: string(), email: string() }),
  AgentPage: page('Agent', 'Agents.'),
  Customer: object({ email: string(), name: nullable(string()) }),
  Conversation: object({
    id: string({ pattern: '^cnv_' }),
    number: integer({ minimum: 1 }),
    mailboxId: string(),
    subject: string(),
    preview: string({ description: 'The start of the latest customer message or reply.' }),
    status,
    customer: ref('Customer'),
    assigneeId: nullable(string()),
    tags: array(string()),
    threadCount: integer({ minimum: 0 }),
    createdAt: dateTime,
    modifiedAt: dateTime,
    closedAt: nullable(dateTime),
  }),
  ConversationPage: page('Conversation', 'Conversations, most recently modified first.'),
  ConversationCreate: object(
    {
      mailboxId: string({ minLength: 1, maxLength: LIMITS.id }),
      subject: string({ minLength: 1, maxLength: LIMITS.subject }),
      customer: object(
        { email: string({ minLength: 3, maxLength: LIMITS.email }), name: string({ maxLength: LIMITS.personName }) },
        ['name'],
      ),
      text: string({ minLength: 1, maxLength: LIMITS.text }),
      tags: array(string({ maxLength: LIMITS.tag }), { maxItems: LIMITS.tags }),
      status,
      assigneeId: nullable(string()),
    },
    ['tags', 'status', 'assigneeId'],
  ),
  ConversationUpdate: object(
    {
      status,
      assigneeId: nullable(string({ description: 'null unassigns.' })),
      tags: array(string({ maxLength: LIMITS.tag }), { maxItems: LIMITS.tags }),
    },
    ['status', 'assigneeId', 'tags'],
  ),
  ThreadType: string({ enum: ['customer', 'reply', 'note'] }),
  Thread: object({
    id: string({ pattern: '^thr_' }),
    conversationId: string(),
    type: ref('ThreadType'),
    author: object({
      type: string({ enum: ['customer', 'agent'] }),
      id: nullable(string()),
      name: nullable(string()),
      email: nullable(string()),
    }),
    text: string(),
    createdAt: dateTime,
  }),
  ThreadPage: page('Thread', 'Threads, oldest first.'),
  ReplyCreate: object({ text: string({ minLength: 1, maxLength: LIMITS.text }), status }, ['status']),
  NoteCreate: object({ text: string({ minLength: 1, maxLength: LIMITS.text }) }),
  DocCollection: object({
    id: string({ pattern: '^col_' }),
    name: string(),
    slug: string(),
    description: string(),
    articleCount: integer({ minimum: 0 }),
  }),
  DocCollectionPage: page('DocCollection', 'Help-centre collections.'),
  Article: object({
    id: string({ pattern: '^art_' }),
    collectionId: string(),
    title: string(),
    slug: string(),
    keywords: array(string()),
    text: string(),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  ArticleSummary: object({
    id: string({ pattern: '^art_' }),
    collectionId: string(),
    title: string(),
    slug: string(),
    keywords: array(string()),
    excerpt: string(),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  ArticleSummaryPage: page('ArticleSummary', 'Articles by title, or by relevance with `query`.'),
}

export const realtime: Record<string, Schema> = {
  ChannelName: string({
    pattern: CHANNEL_NAME.source,
    description: '1–200 of `[A-Za-z0-9_:.@-]`, not `.` or `..` (they cannot travel in a REST path).',
  }),
  Position: object({ epoch: string(), offset: integer({ minimum: 0 }) }),
  PublishRequest: object({ event: string({ minLength: 1, maxLength: LIMITS.eventName }), data: anyJson }, ['data']),
  PublishResult: object({
    offset: integer({ minimum: 1 }),
    epoch: string(),
    messageId: string(),
    duplicate: boolean,
  }),
  Message: object(
    {
      channel: string(),
      event: string(),
      data: anyJson,
      offset: integer({ minimum: 1 }),
      epoch: string(),
      messageId: string(),
      clientId: string(),
      ts: integer({ minimum: 0 }),
    },
    ['clientId'],
  ),
  HistoryResult: object({
    epoch: string(),
    offset: integer({ minimum: 0 }),
    messages: array(ref('Message')),
    complete: boolean,
  }),
  Member: object({ clientId: string(), connectionId: string(), data: anyJson }),
  PresenceResult: object({ members: array(ref('Member')) }),
  ChannelInfo: object({
    name: string(),
    epoch: string(),
    offset: integer({ minimum: 0 }),
    subscribers: integer({ minimum: 0 }),
    members: integer({ minimum: 0 }),
  }),
  ChannelPage: page('ChannelInfo', 'Channels of the app, by name.'),
}
