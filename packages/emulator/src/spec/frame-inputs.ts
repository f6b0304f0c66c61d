// Every client frame checked against the AsyncAPI document before a handler runs: the frame's
// `type` picks its schema (`publish` → PublishFrame), so a refusal names the field that broke it.
import type { ClientFrame } from '@tandem/contract'
import { asyncapi } from '@tandem/contract/spec'
import { components, FRAMES, retarget, specAjv, type Json, type ValidateFunction } from './ajv.js'
import { pickIssue } from './issue.js'

export type RequestId = string | number

export type FrameCheck =
  | { frame: ClientFrame; id: RequestId }
  | { error: { code: 'bad_request' | 'invalid_channel'; message: string }; id: RequestId | undefined }

interface Compiled {
  byType: Map<string, ValidateFunction>
  /** A request id as the contract allows it (only such an id is echoed in an `error`). */
  id: ValidateFunction
}

let compiled: Compiled | undefined

/** Compiles the client frames' schemas (once per process; called at startup). */
export function frameChecks(): Compiled {
  if (compiled) return compiled
  const ajv = specAjv()
  const schemas = components(asyncapi).schemas as Record<string, Json>
  const names = (schemas.ClientFrame?.oneOf as { $ref: string }[]).map((r) => r.$ref.split('/').pop() ?? '')
  const byType = new Map<string, ValidateFunction>()
  for (const name of names) {
    const type = (schemas[name]?.properties as Record<string, { const: string }> | undefined)?.type?.const ?? name
    byType.set(type, ajv.compile({ $ref: `${FRAMES}#/$defs/${name}` }))
  }
  const ping = schemas.PingFrame?.properties as Record<string, Json> | undefined
  compiled = { byType, id: ajv.compile(retarget(ping?.id ?? {}, FRAMES)) }
  return compiled
}

/** A parsed JSON value as a client frame, or the error the socket answers (`bad_request`, `invalid_channel`). */
export function checkFrame(value: unknown): FrameCheck {
  const { byType, id: idSchema } = frameChecks()
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: { code: 'bad_request', message: 'A frame must be a JSON object.' }, id: undefined }
  const raw = value as Json
  const id = idSchema(raw.id) ? (raw.id as RequestId) : undefined
  const validate = typeof raw.type === 'string' ? byType.get(raw.type) : undefined
  if (!validate) {
    const message =
      typeof raw.type === 'string'
        ? `Unknown request type "${raw.type.slice(0, 50)}".`
        : 'The frame needs a string "type".'
    return { error: { code: 'bad_request', message }, id }
  }
  if (validate(raw) && id !== undefined) return { frame: raw as unknown as ClientFrame, id }
  const issue = pickIssue(validate.errors)
  const subject = issue.field ? `"${issue.field}"` : 'The frame'
  return {
    error: { code: issue.channel ? 'invalid_channel' : 'bad_request', message: `${subject} ${issue.message}.` },
    id,
  }
}
