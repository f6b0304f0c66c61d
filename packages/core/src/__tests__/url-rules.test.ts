// The URL options' rules (issue 27, fault 8): no credential, and a base URL's query never
// swallows a path. The end-to-end cases (every option, a counting server, the emulator) are in
// test/reliability/url-options.test.ts.
import { describe, expect, it } from 'vitest'
import { formatBaseUrl, joinPath, parseBaseUrl, splitBaseUrl } from '../url-rules.js'

describe('url rules', () => {
  it('refuses a credential parameter in any spelling, in the query or the fragment, without quoting it', () => {
    for (const name of [
      'key',
      'Key',
      'api_key',
      'API-KEY',
      'apiKey',
      'secret',
      'client_secret',
      'token',
      'access_token',
    ])
      for (const url of [`https://h/?${name}=v4lue`, `https://h/?a=1&${name}=v4lue`, `https://h/#${name}=v4lue`]) {
        expect(() => parseBaseUrl(url, 'baseUrl'), url).toThrow(/^baseUrl: must not carry a credential/)
        expect(() => parseBaseUrl(url, 'baseUrl')).not.toThrow(/v4lue/)
      }
    expect(() => parseBaseUrl('https://k:v4lue@h/', 'baseUrl')).toThrow(/user:password@/)
    // Names that merely contain a credential word are fine.
    expect(formatBaseUrl(parseBaseUrl('https://h/api/?keyboard=1&monkey=2&tokens=3', 'baseUrl'))).toBe(
      'https://h/api?keyboard=1&monkey=2&tokens=3',
    )
  })

  it('joins a path before the query, and splits the query off for the pipeline', () => {
    const root = parseBaseUrl('https://h/api//?t=1&t=2', 'baseUrl')
    expect(formatBaseUrl(joinPath(root, 'maps'))).toBe('https://h/api/maps?t=1&t=2')
    expect(splitBaseUrl('https://h/api/maps?t=1&t=2&u=3')).toEqual({
      base: 'https://h/api/maps',
      query: { t: ['1', '2'], u: ['3'] },
    })
    expect(splitBaseUrl('https://h/maps')).toEqual({ base: 'https://h/maps', query: undefined })
    expect(() => parseBaseUrl('https://h/#/maps', 'baseUrl')).toThrow(/fragment/)
    expect(() => parseBaseUrl('/relative', 'baseUrl')).toThrow(/absolute URL/)
  })
})
