// The composer's rules without the DOM: which chosen files may join a message (the contract's
// limits), the sentence for each refusal (the strings table's, so a page's words are used), and
// when the customer's typing is said and stopped (fake timers: the idle pause is time).
import { UPLOADS } from '@tandem/contract'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createCustomerTyping, IDLE_MS } from '../panel/customer-typing.js'
import { checkFiles, refusalOf } from '../panel/file-checks.js'
import { DEFAULT_STRINGS } from '../strings.js'

const s = DEFAULT_STRINGS
const file = (name: string, type: string, size = 5) => new File([new Uint8Array(size)], name, { type })

describe('checkFiles', () => {
  it('accepts the contract’s types up to the per-message count, and says each refusal once', () => {
    const held = [file('a.png', 'image/png')]
    const added = [
      file('b.pdf', 'application/pdf'),
      file('big.png', 'image/png', UPLOADS.maxFileBytes + 1),
      file('run.sh', 'application/x-sh'),
      file('c.txt', 'text/plain'),
      file('d.jpg', 'image/jpeg'),
      file('e.gif', 'image/gif'),
      file('f.webp', 'image/webp'),
      file('g.png', 'image/png'),
    ]
    const { accepted, refusals } = checkFiles(held, added, s)
    expect(accepted.map((f) => f.name)).toEqual(['b.pdf', 'c.txt', 'd.jpg', 'e.gif'])
    expect(refusals).toEqual([
      'big.png is too big to send: the limit is 10.0 MB.',
      'run.sh cannot be sent: only images (PNG, JPEG, GIF, WebP), PDFs and text files can.',
      'Up to 5 files can go in one message.',
    ])
  })

  it('a file of exactly the limit passes; one without a type does not', () => {
    const { accepted, refusals } = checkFiles(
      [],
      [file('max.pdf', 'application/pdf', UPLOADS.maxFileBytes), file('mystery', '')],
      s,
    )
    expect(accepted.map((f) => f.name)).toEqual(['max.pdf'])
    expect(refusals).toEqual([s.fileWrongType('mystery')])
  })

  it('is core’s check: a name longer than the contract’s is refused, a type with `;charset=` is its type', () => {
    const long = `${'n'.repeat(UPLOADS.nameChars)}.txt`
    const { accepted, refusals } = checkFiles(
      [],
      [file(long, 'text/plain'), file('notes.txt', 'text/plain;charset=UTF-8')],
      s,
    )
    expect(accepted.map((f) => f.name)).toEqual(['notes.txt'])
    expect(refusals).toEqual([s.fileNameTooLong(UPLOADS.nameChars)])
  })
})

describe('refusalOf', () => {
  const files = [file('a.png', 'image/png'), file('b.pdf', 'application/pdf')]
  const error = (code: string, field?: string) => ({ code, ...(field && { details: [{ field, message: code }] }) })

  it.each([
    [error('upload_too_large', 'files[1]'), 'b.pdf is too big to send: the limit is 10.0 MB.'],
    [error('upload_type_not_allowed', 'files[0]'), s.fileWrongType('a.png')],
    [error('upload_type_mismatch'), s.fileWrongType(null)],
    [error('too_many_files'), s.tooManyFiles(5)],
    [error('upload_quota_exceeded'), s.fileQuota],
    [error('upload_cancelled'), s.sendCancelled],
    [error('internal'), s.fileFailed],
    [new TypeError('Failed to fetch'), s.fileFailed],
  ])('%j is said as %j', (failure, sentence) => {
    expect(refusalOf(failure, files, s)).toBe(sentence)
  })

  it('a message without files that failed keeps the old sentence', () => {
    expect(refusalOf(error('internal'), [], s)).toBe(s.sendFailed)
  })
})

describe('createCustomerTyping', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('on with text, renewed by each key; off when emptied, on stop, and after the idle pause, once each', () => {
    vi.useFakeTimers()
    const said: boolean[] = []
    const typing = createCustomerTyping((on) => said.push(on))
    typing.input('H')
    typing.input('Hi')
    expect(said).toEqual([true, true])
    typing.input('  ')
    expect(said).toEqual([true, true, false])
    typing.stop() // already off: nothing more
    expect(said).toEqual([true, true, false])

    typing.input('Hello')
    vi.advanceTimersByTime(IDLE_MS - 1)
    typing.input('Hello!') // a key restarts the pause
    vi.advanceTimersByTime(IDLE_MS - 1)
    expect(said).toEqual([true, true, false, true, true])
    vi.advanceTimersByTime(1)
    expect(said).toEqual([true, true, false, true, true, false])

    typing.input('Again')
    typing.stop()
    vi.advanceTimersByTime(IDLE_MS * 2) // the pause of a stopped typing says nothing
    expect(said).toEqual([true, true, false, true, true, false, true, false])
  })
})
