// The writes of the OpenAPI document as the outbox files and checks them (WRITE_PATHS, matchWrite):
// every write operation is there, no POST that only asks, and a path matches only when each of its
// parameters is one encoded segment of its schema.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { QUERY_POSTS, SERVICES, WRITE_PATHS, matchWrite } from '../index.js'

const openapi = JSON.parse(readFileSync(new URL('../../spec/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Record<string, unknown>>>
}

describe('WRITE_PATHS', () => {
  it('holds every write of the document, per service, and no POST that only asks', () => {
    const listed = SERVICES.flatMap((s) => WRITE_PATHS[s].map((w) => `${w.method} /${s}${w.template}`)).sort()
    const documented = Object.entries(openapi.paths)
      .flatMap(([path, item]) =>
        ['post', 'put', 'patch', 'delete']
          .filter((m) => {
            const op = item[m]
            return op && !op['x-tandem-query'] && !op['x-tandem-ephemeral'] && !op['x-tandem-raw']
          })
          .flatMap((m) =>
            (path.startsWith('/{service}/') ? SERVICES : [undefined]).map(
              (s) => `${m.toUpperCase()} ${s ? path.replace('{service}', s) : path}`,
            ),
          ),
      )
      .sort()
    expect(listed).toEqual(documented)
    for (const q of QUERY_POSTS) {
      const [service, path] = q.split(' ') as [string, string]
      expect(matchWrite(service, 'POST', path), q).toBeUndefined()
    }
  })

  it('leaves out what an outbox must never keep: typing (ephemeral) and tus requests (raw, they resume by themselves)', () => {
    expect(matchWrite('support', 'POST', '/v1/me/conversations/cnv_1/typing')).toBeUndefined()
    expect(matchWrite('support', 'POST', '/v1/uploads')).toBeUndefined()
    expect(matchWrite('support', 'PATCH', '/v1/uploads/upl_0123456789abcdef')).toBeUndefined()
    expect(matchWrite('support', 'DELETE', '/v1/uploads/upl_0123456789abcdef')).toBeUndefined()
    expect(openapi.paths['/support/v1/me/conversations/{id}/typing']?.post?.['x-tandem-ephemeral']).toBe(true)
    expect(openapi.paths['/support/v1/uploads']?.post?.['x-tandem-raw']).toBe(true)
  })
})

describe('matchWrite', () => {
  it.each([
    ['support', 'POST', '/v1/me/conversations/cnv_1/messages', 'support /v1/me/conversations/cnv_1'],
    ['support', 'POST', '/v1/me/conversations/cnv_1/read', 'support /v1/me/conversations/cnv_1'],
    ['support', 'POST', '/v1/me/conversations', 'support /v1/me/conversations'],
    ['support', 'PATCH', '/v1/conversations/c_1', 'support /v1/conversations/c_1'],
    ['support', 'POST', '/v1/conversations/c_1/notes', 'support /v1/conversations/c_1'],
    ['maps', 'DELETE', '/v1/resources/a%2Fb', 'maps /v1/resources/a%2Fb'],
    ['realtime', 'POST', '/v1/channels/chat%3Alobby/messages', 'realtime /v1/channels/chat%3Alobby'],
  ])('%s %s %s → %s', (service, method, path, lane) => {
    expect(matchWrite(service, method, path)?.lane).toBe(lane)
  })

  it.each([
    ['a traversal', 'support', 'POST', '/v1/conversations/../../../dev/token'],
    ['an encoded traversal', 'support', 'POST', '/v1/conversations/%2e%2e/reply'],
    ['a dot segment', 'support', 'PATCH', '/v1/conversations/.'],
    ['an empty parameter', 'support', 'PATCH', '/v1/conversations/'],
    ['a query', 'support', 'POST', '/v1/conversations/c_1/reply?x=1'],
    ['a fragment', 'support', 'POST', '/v1/conversations/c_1/reply#x'],
    ['a raw slash in a parameter', 'support', 'POST', '/v1/conversations/a/b/reply'],
    ['a trailing slash', 'support', 'POST', '/v1/conversations/c_1/reply/'],
    ['bad percent-encoding', 'support', 'PATCH', '/v1/conversations/%E0%A4%A'],
    ['an id past MAX_ID', 'support', 'PATCH', `/v1/conversations/${'x'.repeat(201)}`],
    ['a channel outside CHANNEL_NAME', 'realtime', 'POST', '/v1/channels/a%20b/messages'],
    ['a read', 'support', 'GET', '/v1/conversations/c_1'],
    ['a method the path has not', 'support', 'DELETE', '/v1/conversations/c_1'],
    ['another service’s path', 'maps', 'POST', '/v1/conversations'],
    ['an unknown service', 'evil', 'POST', '/v1/resources'],
    ['a path of no write', 'support', 'POST', '/dev/token'],
    ['a prototype name as service', '__proto__', 'POST', '/v1/resources'],
  ])('refuses %s', (_, service, method, path) => {
    expect(matchWrite(service, method, path)).toBeUndefined()
  })
})
