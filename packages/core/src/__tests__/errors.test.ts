import { describe, expect, it } from 'vitest'
import {
  AbortError,
  ApiError,
  AuthError,
  RateLimitError,
  TandemError,
  ValidationError,
  isAbortError,
  isApiError,
  isAuthError,
  isRateLimitError,
  isTandemError,
  isValidationError,
} from '../index.js'

describe('errors', () => {
  it('form one hierarchy with code, status and requestId', () => {
    const e = new RateLimitError('slow down', {
      code: 'rate_limited',
      status: 429,
      requestId: 'req_1',
      retryAfterMs: 1000,
    })
    expect(e).toBeInstanceOf(TandemError)
    expect(e).toBeInstanceOf(Error)
    expect(e).toMatchObject({
      name: 'RateLimitError',
      code: 'rate_limited',
      status: 429,
      requestId: 'req_1',
      retryAfterMs: 1000,
    })
  })

  it('guards check the name, so an error from another bundle or realm passes', () => {
    const foreign = { name: 'ApiError', code: 'not_found', status: 404, message: 'x' }
    expect(isApiError(foreign)).toBe(true)
    expect(isTandemError(foreign)).toBe(true)
    expect(isAuthError(foreign)).toBe(false)
    expect(isRateLimitError(new ApiError('x', { code: 'c' }))).toBe(false)
    expect(isAuthError(new AuthError('x', { code: 'c' }))).toBe(true)
  })

  it("AbortError is ours and still looks like the DOM's; a DOMException is not a TandemError", () => {
    const ours = new AbortError('aborted', { code: 'aborted' })
    expect(ours.name).toBe('AbortError')
    expect(isAbortError(ours)).toBe(true)
    const dom = new DOMException('aborted', 'AbortError')
    expect(isTandemError(dom)).toBe(false)
    expect(isAbortError(dom)).toBe(false)
  })

  it('ValidationError names the field', () => {
    const e = new ValidationError('origin', 'is required')
    expect(isValidationError(e)).toBe(true)
    expect(e).toMatchObject({ field: 'origin', code: 'validation_error', message: 'origin: is required' })
  })

  it.each([null, undefined, 'ApiError', 42, {}, { name: 'ApiError' }, { name: 'ApiError', code: 3 }])(
    'rejects %s',
    (value) => {
      expect(isTandemError(value)).toBe(false)
    },
  )
})
