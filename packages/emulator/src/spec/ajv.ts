// The published documents, loaded into one ajv instance per process: the emulator checks every
// REST input and client frame against the same objects it serves at /openapi.json and
// /asyncapi.json (docs/contract.md, "The emulator refuses what the spec refuses").
import { asyncapi, openapi } from '@tandem/contract/spec'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

export type Json = Record<string, unknown>
export type { ValidateFunction }

/** Where each document's `components.schemas` live in ajv: `rest#/$defs/Name`, `frames#/$defs/Name`. */
export const REST = 'rest'
export const FRAMES = 'frames'

let instance: Ajv2020 | undefined

/** The shared ajv, with both documents' schemas added (built on first use: startup, not per request). */
export function specAjv(): Ajv2020 {
  if (instance) return instance
  // allErrors off: the first problem is enough to refuse, and it is faster on the hot path.
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: false })
  addFormats(ajv)
  ajv.addSchema({ $id: REST, $defs: retarget(components(openapi).schemas, REST) })
  ajv.addSchema({ $id: FRAMES, $defs: retarget(components(asyncapi).schemas, FRAMES) })
  instance = ajv
  return ajv
}

export const components = (document: Json): Record<string, Record<string, Json>> =>
  document.components as Record<string, Record<string, Json>>

/** A copy of `schema` whose `#/components/schemas/X` refs point at `<id>#/$defs/X`. */
export function retarget<T>(schema: T, id: string): T {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${id}#/$defs/`)) as T
}
