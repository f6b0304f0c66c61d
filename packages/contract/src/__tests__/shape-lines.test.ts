// The shape language of has-fields.ts, kind by kind and against hostile values: what a line
// accepts, what it refuses, and the path `wrongField` names for the first field that is wrong.
import { describe, expect, it } from 'vitest'
import { hasFields, wrongField } from '../index.js'

type Case = [line: string, value: unknown, wrong: string | undefined]

const parsed = (json: string): unknown => JSON.parse(json)

describe('hasFields and wrongField: the shape language', () => {
  const kinds: Case[] = [
    ['a:string', { a: '' }, undefined],
    ['a:string', { a: 1 }, '$.a'],
    ['a:string', {}, '$.a'], // required
    ['a:boolean', { a: false }, undefined],
    ['a:boolean', { a: 'false' }, '$.a'],
    ['a:object', { a: {} }, undefined],
    ['a:object', { a: [] }, '$.a'], // an array is not an object
    ['a:object', { a: null }, '$.a'],
    ['a:array', { a: [] }, undefined],
    ['a:array', { a: { length: 0 } }, '$.a'],
    ['a:null', { a: null }, undefined],
    ['a:null', { a: undefined }, '$.a'],
    ['a:number', { a: -1.5 }, undefined],
    ['a:number', { a: NaN }, '$.a'],
    ['a:number', { a: Infinity }, '$.a'],
    ['a:number', parsed('{"a":1e400}'), '$.a'], // JSON's overflow is Infinity
    ['a:number', { a: '1' }, '$.a'],
    ['a:int', { a: -3 }, undefined],
    ['a:int', { a: 1.5 }, '$.a'],
    ['a:int', { a: 2 ** 53 }, '$.a'], // not a safe integer
    ['a:int0', { a: 0 }, undefined],
    ['a:int0', { a: -1 }, '$.a'],
    ['a:int1000', { a: 999 }, '$.a'],
    ['a:int-5', { a: -5 }, undefined],
    ['a:id', { a: 'r1' }, undefined],
    ['a:id', { a: 7 }, undefined],
    ['a:id', { a: true }, '$.a'],
    ['a:date', { a: '2024-07-05T10:00:00.000Z' }, undefined],
    ['a:date', { a: 'yesterday' }, '$.a'],
    ['a:date', { a: 1720173600000 }, '$.a'], // a number is no date-time string
    ['a:any', { a: null }, undefined],
    ['a:any', { a: 0 }, undefined],
    ['a:any', {}, '$.a'], // present
  ]
  const nullsAndOptionals: Case[] = [
    ['a:string?', { a: null }, undefined],
    ['a:string?', { a: 's' }, undefined],
    ['a:string?', {}, '$.a'], // nullable is not optional
    ['a?:number', {}, undefined],
    ['a?:number', { a: undefined }, undefined],
    ['a?:number', { a: null }, '$.a'], // optional is not nullable
    ['a?:number', { a: NaN }, '$.a'], // present: checked
    ['a?:date?', { a: null }, undefined],
    ['a?:date?', { a: 'not a date' }, '$.a'],
  ]
  const enums: Case[] = [
    ['s:active|pending|closed', { s: 'pending' }, undefined],
    ['s:active|pending|closed', { s: 'Active' }, '$.s'],
    ['s:active|pending|closed', { s: 'active|pending' }, '$.s'],
    ['s:active|pending|closed', { s: ['active'] }, '$.s'],
    ['s:active|pending|closed', {}, '$.s'],
    ['s:active|pending?', { s: null }, undefined],
    ['type:Feature', { type: 'Feature' }, undefined], // one value: a constant
    ['type:Feature', { type: 'feature' }, '$.type'],
  ]
  const nested: Case[] = [
    ['author:object author.type:customer|agent', { author: { type: 'agent' } }, undefined],
    ['author:object author.type:customer|agent', { author: { type: 'bot' } }, '$.author.type'],
    // The parent's own field says it must be an object; the nested one is not read then.
    ['author:object author.type:customer|agent', { author: null }, '$.author'],
    ['author.type:customer|agent', { author: 'agent' }, undefined],
    ['geocode?:object geocode.placeId:string', {}, undefined], // an absent optional parent: nothing below is read
    ['geocode?:object geocode.placeId:string', { geocode: {} }, '$.geocode.placeId'],
    ['a:object a.b:object a.b.c:int0', { a: { b: { c: -1 } } }, '$.a.b.c'],
  ]
  const arrays: Case[] = [
    ['s:array s[]:object s[].mainText:string', { s: [{ mainText: 'a' }, { mainText: 'b' }] }, undefined],
    ['s:array s[]:object s[].mainText:string', { s: [{ mainText: 'a' }, { mainText: 42 }] }, '$.s[1].mainText'],
    ['s:array s[]:object s[].mainText:string', { s: null }, '$.s'],
    ['s:array s[]:object s[].mainText:string', {}, '$.s'],
    ['s:array s[]:object s[].mainText:string', { s: ['a'] }, '$.s[0]'],
    ['s:array s[]:object s[].mainText:string', { s: [null] }, '$.s[0]'],
    ['s:array s[]:object s[].h?:string', { s: [{}, { h: 1 }] }, '$.s[1].h'],
    ['tags:array tags[]:string', { tags: ['a', 'b', 3] }, '$.tags[2]'],
    [
      'c:array c[][]:number',
      {
        c: [
          [1, 2],
          [3, NaN],
        ],
      },
      '$.c[1][1]',
    ],
    ['c:array c[][]:number', { c: [[1, 2], 3] }, undefined], // `[]` over what is not an array checks nothing
    ['a:array a[].b:int0', { a: [{ b: 0 }, 'x', { b: 1 }] }, undefined], // nested paths skip items that are not objects
  ]

  it.each([...kinds, ...nullsAndOptionals, ...enums, ...nested, ...arrays])('%s on %j: %s', (line, value, wrong) => {
    expect(wrongField(value, line)).toBe(wrong)
    expect(hasFields(value, line)).toBe(wrong === undefined)
  })

  it('fields a line does not name are not looked at, and an empty line asks only for an object', () => {
    expect(hasFields({ a: 's', extra: NaN }, 'a:string')).toBe(true)
    expect(hasFields({}, '')).toBe(true)
    for (const value of [null, undefined, 'a', 42, [], [{ a: 's' }]]) {
      expect(wrongField(value, 'a:string'), JSON.stringify(value)).toBe('$')
      expect(wrongField(value, ''), JSON.stringify(value)).toBe('$')
    }
  })

  it('names the first wrong field in the order of the line', () => {
    expect(wrongField({ a: 1, b: 2 }, 'a:string b:string')).toBe('$.a')
    expect(wrongField({ a: 1, b: 2 }, 'b:string a:string')).toBe('$.b')
  })

  it('reads the names every object inherits only as own fields', () => {
    expect(wrongField({}, 'constructor:any')).toBe('$.constructor') // Object.prototype's is not the answer's
    expect(wrongField({}, 'toString:any')).toBe('$.toString')
    expect(wrongField(parsed('{"constructor":"x"}'), 'constructor:string')).toBe(undefined)
    expect(wrongField(parsed('{"__proto__":"x"}'), '__proto__:string')).toBe(undefined)
    expect(wrongField({ a: {} }, 'a:object a.hasOwnProperty:any')).toBe('$.a.hasOwnProperty')
    // A `__proto__` key in JSON is an own field: it sets no prototype, so nothing is inherited from it.
    const hostile = parsed('{"__proto__":{"mainText":"x","isAdmin":true}}')
    expect(wrongField(hostile, 'mainText:string')).toBe('$.mainText')
    expect(wrongField({ s: [hostile] }, 's:array s[].mainText:string')).toBe('$.s[0].mainText')
  })

  it('a value that throws when read does not fit, and nothing is thrown', () => {
    const getter = Object.defineProperty({}, 'a', {
      get() {
        throw new Error('boom')
      },
    })
    expect(wrongField(getter, 'a:string')).toBe('$')
    const { proxy, revoke } = Proxy.revocable({ a: 's' }, {})
    revoke()
    expect(hasFields(proxy, 'a:string')).toBe(false)
    expect(hasFields({ s: [getter] }, 's:array s[].a:string')).toBe(false)
  })

  it('huge arrays and deep values: a loop per item, a depth bounded by the line', () => {
    const items = Array.from({ length: 1_000_000 }, () => ({ mainText: 'a' }))
    expect(hasFields({ s: items }, 's:array s[]:object s[].mainText:string')).toBe(true)
    items[999_999] = { mainText: 7 as unknown as string }
    expect(wrongField({ s: items }, 's:array s[]:object s[].mainText:string')).toBe('$.s[999999].mainText')
    let deep: unknown = { leaf: true }
    for (let i = 0; i < 100_000; i++) deep = { next: deep }
    expect(hasFields({ next: deep }, 'next:object next.next:object')).toBe(true)
  })

  it('a line that is not `path:kind` fields is a programming error, thrown at once', () => {
    for (const line of ['a', ':string', 'a:', '?:string', 'a:string  b:string'])
      expect(() => hasFields({}, line), line).toThrow(TypeError)
  })
})
