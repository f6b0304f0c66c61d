// The shapes of the three services, as JSON Schema 2020-12 (what OpenAPI 3.1 uses). Written by
// hand, once: openapi.ts and asyncapi.ts place them; scripts/generate.mjs writes the published
// JSON documents and the TypeScript types every package imports. Limits come from wire.ts.
// Maps' and support's own shapes are in maps-schemas.ts and support-schemas.ts.
//
// Response objects are closed (`additionalProperties: false`): a field the contract does not
// name fails the emulator's conformance tests instead of drifting in unnoticed. Request bodies
// are closed too: the emulator refuses a field they do not name (400), as the service does.
import { CHANNEL_NAME, LIMITS, RATE_LIMIT_BUCKETS, SERVICES } from '../wire.js'
import { anyJson, array, boolean, dateTime, integer, object, page, ref, string, text, type Schema } from './helpers.js'

export { maps } from './maps-schemas.js'
export { support } from './support-schemas.js'
export { customer, customerSocket } from './customer-schemas.js'
export { push } from './push-schemas.js'
export * from './helpers.js'

/** An epoch as a client sends it back (`since`): the service's own are far shorter than 200. */
export const epoch = (extra: Schema = {}): Schema => string({ minLength: 1, maxLength: 200, ...extra })

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
  RateLimitDetail: object(
    {
      bucket: string({
        enum: [...RATE_LIMIT_BUCKETS],
        description: "The bucket that refused: `customer` (the customer token's own) or `app` (the app's plan).",
      }),
      message: string(),
    },
    ['message'],
  ),
  RateLimitedError: object(
    {
      error: object({
        code: string({ description: '`rate_limited`.' }),
        message: string(),
        status: integer({ const: 429 }),
        requestId: string(),
        details: array(ref('RateLimitDetail'), { minItems: 1, maxItems: 1 }),
      }),
    },
    [],
    { description: 'A 429: which bucket refused, in `details[0]`.' },
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
      name: text(LIMITS.resourceName),
      attributes: { type: 'object', additionalProperties: true },
    },
    ['attributes'],
  ),
  ResourceUpdate: object(
    {
      name: text(LIMITS.resourceName),
      attributes: { type: 'object', additionalProperties: true },
    },
    ['name', 'attributes'],
  ),
}

export const realtime: Record<string, Schema> = {
  ChannelName: string({
    pattern: CHANNEL_NAME.source,
    description: '1–200 of `[A-Za-z0-9_:.@-]`, not `.` or `..` (they cannot travel in a REST path).',
  }),
  Position: object({ epoch: epoch(), offset: integer({ minimum: 0 }) }),
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
