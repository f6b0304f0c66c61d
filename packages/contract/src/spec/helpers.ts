// The building blocks of the contract's JSON Schema 2020-12 (what OpenAPI 3.1 uses): small
// functions, so the schemas read like the shapes they describe.
import { LIMITS } from '../wire.js'

/** A JSON Schema (or OpenAPI) object, loosely typed: the linter and ajv check the documents. */
export type Schema = Record<string, unknown>

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

/**
 * Text a person writes (a name, a subject, a message): 1 to `max` characters, not all blank. The
 * services refuse "   " as they refuse "", and the schema says so (`\S`: one visible character).
 */
export const text = (max: number, extra: Schema = {}): Schema =>
  string({ minLength: 1, maxLength: max, pattern: '\\S', ...extra })
/** An email address (RFC 5321's 254 characters at most). */
export const email = (extra: Schema = {}): Schema => string({ format: 'email', maxLength: LIMITS.email, ...extra })
