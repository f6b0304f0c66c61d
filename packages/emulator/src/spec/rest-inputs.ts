// Every REST input checked against the OpenAPI operation it belongs to, before any handler runs:
// path params, query, headers (Idempotency-Key) and the JSON body. Compiled once per process.
import { openapi } from '@tandem/contract/spec'
import type { IncomingHttpHeaders } from 'node:http'
import { HttpError } from '../http-errors.js'
import { components, REST, retarget, specAjv, type Json, type ValidateFunction } from './ajv.js'
import { pickIssue, type Issue } from './issue.js'
import { isRecord as isObject } from '@tandem/contract'

export interface RestInput {
  params: Readonly<Record<string, string>>
  query: URLSearchParams
  headers: IncomingHttpHeaders
  /** The parsed body, or undefined when none was sent. */
  body: unknown
}

/** Refuses an input the operation's contract refuses (400), or returns nothing. */
export type InputCheck = (input: RestInput) => void

interface Param {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  /** Query values arrive as text: an integer or number param (or array item) is read as one first. */
  numeric: 'integer' | 'number' | undefined
  /** An array query param takes each repeat as an item (`form`, exploded); a scalar takes one value. */
  array: boolean
  validate: ValidateFunction
}

const checks = new Map<string, InputCheck>()

/**
 * The check of `method` on an OpenAPI path (`/{service}/v1/resources/{id}`). Throws at startup when
 * the contract has no such operation: every route the emulator serves must be in the contract.
 */
export function inputCheck(method: string, path: string): InputCheck {
  const key = `${method} ${path}`
  let check = checks.get(key)
  if (!check) checks.set(key, (check = compile(method.toLowerCase(), path)))
  return check
}

function compile(method: string, path: string): InputCheck {
  const item = (openapi.paths as Record<string, Json | undefined>)[path]
  const operation = item?.[method] as Json | undefined
  if (!item || !operation) throw new Error(`the contract has no ${method.toUpperCase()} ${path}`)
  const ajv = specAjv()
  const params: Param[] = [...list(item.parameters), ...list(operation.parameters)].map((ref) => {
    const p = resolve(ref)
    const schema = retarget(p.schema as Json, REST)
    const array = schema.type === 'array'
    const type = array ? (schema.items as Json | undefined)?.type : schema.type
    return {
      name: p.name as string,
      in: p.in as Param['in'],
      required: p.required === true,
      numeric: type === 'integer' || type === 'number' ? type : undefined,
      array,
      validate: ajv.compile(schema),
    }
  })
  const content = (operation.requestBody as { content?: Record<string, { schema: Json }> } | undefined)?.content
  const bodySchema = content?.['application/json']?.schema
  const body = bodySchema ? ajv.compile(retarget(bodySchema, REST)) : undefined

  return (input) => {
    for (const param of params) {
      const raw = read(param, input)
      if (raw === undefined) {
        if (param.required)
          throw refusal(param, { field: '', message: 'is required', keyword: 'required', channel: false })
        continue
      }
      const value = param.numeric
        ? Array.isArray(raw)
          ? raw.map((item) => numeric(item, param.numeric!))
          : numeric(raw, param.numeric)
        : raw
      if (!param.validate(value)) throw refusal(param, pickIssue(param.validate.errors))
    }
    if (!body) return
    if (input.body === undefined || !isObject(input.body))
      throw new HttpError(400, 'invalid_body', 'Request body must be a JSON object.')
    if (!body(input.body)) {
      const issue = pickIssue(body.errors)
      if (issue.field === '') throw new HttpError(400, 'invalid_body', `Request body ${issue.message}.`)
      // Files per message has a code of its own (the SDK's check gives the same one).
      if (issue.field === 'attachments' && issue.keyword === 'maxItems')
        throw new HttpError(400, 'too_many_files', `Invalid attachments: ${issue.message}.`, [
          { field: 'attachments', message: issue.message },
        ])
      throw invalid(issue.field, issue.message, issue.channel)
    }
  }
}

function read(param: Param, input: RestInput): string | string[] | undefined {
  if (param.in === 'path') return input.params[param.name]
  if (param.in === 'header') {
    const value = input.headers[param.name.toLowerCase()]
    // A repeated header arrives as a list: refused as the joined text would be.
    return Array.isArray(value) ? value.join(', ') : value
  }
  // As the contract states every query param (`form`, `explode: true`, `allowEmptyValue: false`):
  // a scalar once, an array's items one per repeat, and never an empty value. First-wins would
  // quietly drop what a caller meant; an empty value is refused, not read as absent.
  const values = input.query.getAll(param.name)
  if (values.length === 0) return undefined
  if (values.includes('')) throw refusal(param, queryIssue('must not be empty'))
  if (param.array) return values
  if (values.length > 1) throw refusal(param, queryIssue('is given more than once'))
  return values[0]
}

const queryIssue = (message: string): Issue => ({ field: '', message, keyword: 'query', channel: false })

/** `12` → 12 for an integer param; anything else stays text, so the type check names it. */
function numeric(raw: string, type: 'integer' | 'number'): string | number {
  return (type === 'integer' ? /^-?\d{1,15}$/ : /^-?\d{1,15}(\.\d{1,15})?$/).test(raw) ? Number(raw) : raw
}

function refusal(param: Param, issue: Issue): HttpError {
  return invalid(issue.field ? `${param.name}.${issue.field}` : param.name, issue.message, issue.channel)
}

function invalid(field: string, message: string, channel: boolean): HttpError {
  return new HttpError(400, channel ? 'invalid_channel' : 'invalid_parameter', `Invalid ${field}: ${message}.`, [
    { field, message },
  ])
}

const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : [])

/** A `$ref` to `#/components/parameters/x`, or the parameter itself. */
function resolve(param: Json): Json {
  const ref = param.$ref
  if (typeof ref !== 'string') return param
  const found = components(openapi).parameters?.[ref.split('/').pop() ?? '']
  if (!found) throw new Error(`the contract has no parameter ${ref}`)
  return found
}
