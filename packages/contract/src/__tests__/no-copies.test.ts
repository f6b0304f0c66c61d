// The wire rules are written in @tandem/contract alone: a rule literal that reappears in another
// package's code (not its comments, not its tests, which pin the values on purpose) is a copy
// that can drift, as the emulator's idempotency pattern once did (it let a space through).
import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { API_ERROR_CODES, CLOSE, CREDENTIAL_PARAMS, REALTIME_ERROR_CODES } from '../index.js'
import { CLIENT_FRAME_FIELDS, SERVER_FRAME_FIELDS } from '../frame-fields.js'

const ROOT = new URL('../../../../', import.meta.url).pathname
const SKIP = new Set(['node_modules', 'dist', 'generated', '__tests__'])

const quoted = (names: readonly string[]) => `'(?:${names.map((n) => n.replaceAll('.', '\\.')).join('|')})'`
/** Three of a set's names in a row, comma-separated (an array or a `Set`): a list restated. */
const listOf = (names: readonly string[]) => new RegExp(Array(3).fill(quoted(names)).join(',\\s*'))

const RULES: Record<string, RegExp> = {
  'the idempotency-key pattern (IDEMPOTENCY_KEY)': /\\x2[01]-\\x7e/i,
  'the channel-name pattern (CHANNEL_NAME)': /\[\\w:\.@-\]/,
  'a close code (CLOSE)': new RegExp(`\\b(?:${Object.values(CLOSE).join('|')})\\b`),
  'the default maxMessageBytes (MAX_MESSAGE_BYTES)': /\b65_?536\b/,
  'a list of error codes (API_ERROR_CODES, REALTIME_ERROR_CODES)': listOf([
    ...API_ERROR_CODES,
    ...REALTIME_ERROR_CODES,
  ]),
  'a list of frame types (SERVER_FRAME_FIELDS, CLIENT_FRAME_FIELDS)': listOf(
    Object.keys({ ...SERVER_FRAME_FIELDS, ...CLIENT_FRAME_FIELDS }),
  ),
  'the latitude and longitude bounds (LAT_MAX, LNG_MAX)': /-90\s*,\s*90\b|-180\s*,\s*180\b/,
  'a list of credential parameters (CREDENTIAL_PARAMS)': listOf([
    ...CREDENTIAL_PARAMS,
    'api_key',
    'api-key',
    'access_token',
    'client_secret',
  ]),
}

/** `file: rule` pairs that match but are no copy, each with why. One that no longer matches must go. */
const KNOWN = new Map<string, string>([
  // Equal by chance, not the rule: a different limit.
  ['packages/server/src/defaults.ts: the default maxMessageBytes (MAX_MESSAGE_BYTES)', 'the token handler body cap'],
  ['packages/core/src/token-endpoint.ts: the default maxMessageBytes (MAX_MESSAGE_BYTES)', 'a token answer cap'],
  ['packages/emulator/src/maps/streets.ts: a close code (CLOSE)', 'seed data: a street number'],
])

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* sources(path)
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name)) yield path
  }
}

/**
 * The code alone: comments say which code a line is about, and that is no copy. Line comments go
 * first (one may name `docs/*.md`); `://` in a URL is no comment. Lines stay where they were.
 */
const code = (text: string) =>
  text.replace(/(^|[^:\\])\/\/.*$/gm, '$1').replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ''))

const packages = readdirSync(join(ROOT, 'packages')).filter((name) => name !== 'contract')
const roots = [...packages.map((name) => join(ROOT, 'packages', name, 'src')), join(ROOT, 'playground', 'src')]

describe('no copy of a wire rule outside @tandem/contract', () => {
  it('each rule finds its statement in the contract, or a list (the scan can fail)', () => {
    const wire = code(readFileSync(new URL('../wire.ts', import.meta.url), 'utf8')).split('\n')
    const [idempotency, channel, close, bytes, errors, frames] = Object.values(RULES) as RegExp[]
    for (const rule of [idempotency!, channel!, close!, bytes!]) expect(wire.some((line) => rule.test(line))).toBe(true)
    expect(errors!.test("new Set(['not_found', 'forbidden', 'rate_limited'])")).toBe(true)
    expect(frames!.test("['ack', 'ok', 'presence.members']")).toBe(true)
    expect(frames!.test("type: 'presence.enter' | 'presence.update' | 'presence.leave'")).toBe(false) // a type, not a list
    const credentials = Object.values(RULES).at(-1)!
    expect(wire.some((line) => credentials.test(line))).toBe(true)
  })

  it('packages/*/src and playground/src import the rules instead of restating them', () => {
    const copies: string[] = []
    const seen = new Set<string>()
    for (const root of roots)
      for (const file of sources(root)) {
        const lines = code(readFileSync(file, 'utf8')).split('\n')
        for (const [rule, pattern] of Object.entries(RULES)) {
          const at = lines.findIndex((line) => pattern.test(line))
          const key = `${relative(ROOT, file)}: ${rule}`
          if (at < 0) continue
          seen.add(key)
          if (!KNOWN.has(key)) copies.push(`${key}, line ${at + 1}: ${lines[at]!.trim()}`)
        }
      }
    expect(copies).toEqual([])
    expect([...KNOWN.keys()].filter((key) => !seen.has(key))).toEqual([]) // the list only shrinks
  })
})
