// Files (docs/uploads.md): the tus 1.0.0 endpoint (tus.io, resumable uploads) and the signed
// downloads. Neither is a JSON operation: they are marked `x-tandem-raw` (no examples, no JSON
// body), so the outbox's WRITE_PATHS and the JSON conformance cases leave them out; the
// emulator's uploads tests hold it to them.
import { UPLOAD_ID, UPLOAD_MEDIA_TYPES, UPLOAD_NAME_RULE, UPLOADS } from '../uploads.js'
import { integer, string, type Schema } from './helpers.js'
import { ERROR_RESPONSES, headerRefs, pathParam, query, STANDARD_HEADERS } from './operations.js'

const TAG = 'support'
const header = (name: string, schema: Schema, description: string, required = true): Schema => ({
  name,
  in: 'header',
  required,
  schema,
  description,
})
const TUS_RESUMABLE = header('Tus-Resumable', string({ const: '1.0.0' }), 'The tus version: `1.0.0`.')
/** No maximum here: past UPLOADS.maxFileBytes is 413 `upload_too_large`, not a 400. */
const OFFSET = integer({ minimum: 0 })
/** What every tus answer carries besides the standard headers. */
const TUS_HEADERS = { ...STANDARD_HEADERS, ...headerRefs(['Tus-Resumable']) }
const uploadId = pathParam('id', string({ pattern: UPLOAD_ID.source }))
const raw = { 'x-tandem-raw': true }

export const uploadHeaders: Record<string, Schema> = {
  'Tus-Resumable': { description: 'The tus version the service speaks: `1.0.0`.', schema: string({ const: '1.0.0' }) },
  'Upload-Offset': { description: 'The bytes the service holds.', schema: OFFSET },
  'Upload-Length': { description: 'The file’s size in bytes.', schema: OFFSET },
}

export const uploadPaths: Record<string, Schema> = {
  '/support/v1/uploads': {
    post: {
      operationId: 'createUpload',
      tags: [TAG],
      summary: 'Start an upload (tus creation)',
      description:
        `Agents and customers. \`Upload-Length\` is required (no deferred length), at most ${UPLOADS.maxFileBytes} ` +
        'bytes (413 `upload_too_large`); `Upload-Metadata` carries `filename` (it ' +
        `${UPLOAD_NAME_RULE}: else 400 \`invalid_parameter\`) and \`filetype\`, one of ${UPLOAD_MEDIA_TYPES.join(', ')} (415 ` +
        '`upload_type_not_allowed`). A customer holds at most ' +
        `${UPLOADS.customerQuotaBytes} bytes in uploads (413 \`upload_quota_exceeded\`). When the last byte ` +
        'arrives the service checks the bytes against `filetype` (415 `upload_type_mismatch`: the upload is ' +
        'deleted). `Location` is the upload’s URL; its last segment is the id a message’s `attachments` names. ' +
        'This creation counts against the rate limit; the upload’s HEAD and PATCH requests do not (its DELETE does).',
      ...raw,
      parameters: [
        TUS_RESUMABLE,
        header('Upload-Length', OFFSET, 'The file’s size in bytes.'),
        header(
          'Upload-Metadata',
          string(),
          'Comma-separated `key base64value` pairs: `filename` and `filetype` (required).',
        ),
      ],
      responses: {
        201: {
          description: 'Created: send the bytes with PATCH to `Location`.',
          headers: {
            ...TUS_HEADERS,
            Location: { description: 'The upload’s URL.', schema: string() },
          },
        },
        ...ERROR_RESPONSES,
      },
    },
  },
  '/support/v1/uploads/{id}': {
    parameters: [uploadId],
    head: {
      operationId: 'getUploadOffset',
      tags: [TAG],
      summary: 'How many bytes the service holds (tus resume)',
      description: 'Only its owner sees an upload: anyone else is answered 404, as for an unknown id.',
      ...raw,
      parameters: [TUS_RESUMABLE],
      responses: {
        200: {
          description: 'Its offset and length.',
          headers: { ...TUS_HEADERS, ...headerRefs(['Upload-Offset', 'Upload-Length']) },
        },
        ...ERROR_RESPONSES,
      },
    },
    patch: {
      operationId: 'sendUploadBytes',
      tags: [TAG],
      summary: 'Send bytes from the offset the service holds (tus)',
      description:
        'The body continues the file at `Upload-Offset`; a cut connection keeps what arrived. Another offset ' +
        'is 409; the owner only (404 otherwise).',
      ...raw,
      parameters: [TUS_RESUMABLE, header('Upload-Offset', OFFSET, 'Where the body starts.')],
      requestBody: {
        required: true,
        content: {
          'application/offset+octet-stream': { schema: string({ contentMediaType: 'application/octet-stream' }) },
        },
      },
      responses: {
        204: { description: 'Stored.', headers: { ...TUS_HEADERS, ...headerRefs(['Upload-Offset']) } },
        ...ERROR_RESPONSES,
      },
    },
    delete: {
      operationId: 'deleteUpload',
      tags: [TAG],
      summary: 'Cancel an upload (tus termination)',
      description: 'Frees its bytes from the customer’s quota. An upload on a message cannot be deleted (404).',
      ...raw,
      parameters: [TUS_RESUMABLE],
      responses: { 204: { description: 'Deleted.', headers: TUS_HEADERS }, ...ERROR_RESPONSES },
    },
  },
  '/support/v1/files/{id}': {
    parameters: [uploadId],
    get: {
      operationId: 'downloadFile',
      tags: [TAG],
      summary: 'Download a file by its signed URL',
      description:
        'The URL comes from an `Attachment` (`url`): no token, signed by the service (HMAC-SHA256, base64url), ' +
        `good for ${UPLOADS.downloadTtlSeconds} s. A bad or expired signature is 403 \`forbidden\`. Images are ` +
        'served `inline`, other files as `attachment`, with `X-Content-Type-Options: nosniff` and a sandboxing CSP.',
      ...raw,
      security: [],
      parameters: [
        query('expires', integer({ minimum: 0 }), 'Unix seconds when the URL stops working.', true),
        // Any text: one that is not the service's (a wrong length too) is the same 403, not a 400.
        query('signature', string({ maxLength: 100 }), 'The service’s signature (43 base64url characters).', true),
      ],
      responses: {
        200: {
          description: 'The file’s bytes, with its stored type.',
          headers: STANDARD_HEADERS,
          content: Object.fromEntries(
            UPLOAD_MEDIA_TYPES.map((type) => [type, { schema: string({ contentMediaType: type }) }]),
          ),
        },
        403: { $ref: '#/components/responses/Error' },
        ...ERROR_RESPONSES,
      },
    },
  },
}
