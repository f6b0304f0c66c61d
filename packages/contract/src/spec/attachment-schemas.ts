// Files on messages (docs/uploads.md): the `Attachment` a message carries, and what a write that
// references uploads sends. The limits and media types come from uploads.ts.
import { TEXT_OR_FILES_RULE, UPLOAD_ID, UPLOAD_MEDIA_TYPES, UPLOADS } from '../uploads.js'
import { LIMITS } from '../wire.js'
import { array, dateTime, integer, nullable, object, string, type Schema } from './helpers.js'

const uploadId = string({ pattern: UPLOAD_ID.source, examples: ['upl_4fJ2kq8ZrT0aXw9bYc1d'] })

export const Attachment: Schema = object(
  {
    id: uploadId,
    name: string({ maxLength: UPLOADS.nameChars, description: 'The name it was uploaded with (tus `filename`).' }),
    type: string({ enum: [...UPLOAD_MEDIA_TYPES], description: 'Its media type, checked against its bytes.' }),
    size: integer({ minimum: 0, maximum: UPLOADS.maxFileBytes, description: 'Bytes.' }),
    url: string({
      format: 'uri',
      examples: [
        'https://api.example/support/v1/files/upl_4fJ2kq8ZrT0aXw9bYc1d?expires=1767225600&signature=Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5',
      ],
      description:
        'Where to download it without a token: signed by the service, it works until `expiresAt` (read the ' +
        'message again for a fresh one).',
    }),
    expiresAt: { ...dateTime, description: 'When `url` stops working.' },
    width: nullable(integer({ minimum: 1, description: 'An image’s width in pixels; null for other files.' })),
    height: nullable(integer({ minimum: 1, description: 'An image’s height in pixels; null for other files.' })),
  },
  [],
  { description: 'A file on a message.' },
)

/** The uploads a write attaches (tus ids, each complete, the caller's own, on no other message). */
export const attachmentIds: Schema = array(uploadId, {
  maxItems: UPLOADS.filesPerMessage,
  uniqueItems: true,
  description:
    'Upload ids (the last segment of each tus URL). All are attached or none: an id that is unknown, ' +
    'another caller’s or already on a message is 404 `upload_not_found`; one still uploading is 409 ' +
    '`upload_incomplete`; more than the limit is 400 `too_many_files`.',
})

/**
 * A message's body: `text`, blank only when `attachments` holds at least one upload. The text's
 * own rule (`\S`) is stated as a `not` of the one refused case (blank text and no file), which
 * the services answer 400 `invalid_body` with TEXT_OR_FILES_RULE; the types stay one object.
 */
export function withTextOrFiles(properties: Record<string, Schema>, optional: string[]): Schema {
  return object(
    {
      text: string({
        maxLength: LIMITS.text,
        description: 'At most the limit; not blank unless `attachments` holds at least one upload.',
      }),
      ...properties,
    },
    optional,
    {
      not: {
        type: 'object',
        description: `Refused: ${TEXT_OR_FILES_RULE}.`,
        required: ['text'],
        properties: {
          text: { type: 'string', pattern: '^\\s*$' },
          attachments: { type: 'array', maxItems: 0 },
        },
      },
    },
  )
}
