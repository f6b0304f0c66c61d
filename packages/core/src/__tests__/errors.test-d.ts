import { describe, expectTypeOf, it } from 'vitest'
import {
  isAbortError,
  isApiError,
  isAuthError,
  isNetworkError,
  isRateLimitError,
  isRealtimeError,
  isTandemError,
  isTimeoutError,
  isValidationError,
  type AbortError,
  type ApiError,
  type AuthError,
  type NetworkError,
  type RateLimitError,
  type RealtimeError,
  type TandemError,
  type TimeoutError,
  type ValidationError,
} from '../index.js'

declare const e: unknown

describe('error guards', () => {
  it('each guard narrows unknown to its class', () => {
    if (isTandemError(e)) expectTypeOf(e).toEqualTypeOf<TandemError>()
    if (isApiError(e)) expectTypeOf(e).toEqualTypeOf<ApiError>()
    if (isAuthError(e)) expectTypeOf(e).toEqualTypeOf<AuthError>()
    if (isRateLimitError(e)) expectTypeOf(e).toEqualTypeOf<RateLimitError>()
    if (isNetworkError(e)) expectTypeOf(e).toEqualTypeOf<NetworkError>()
    if (isTimeoutError(e)) expectTypeOf(e).toEqualTypeOf<TimeoutError>()
    if (isAbortError(e)) expectTypeOf(e).toEqualTypeOf<AbortError>()
    if (isValidationError(e)) expectTypeOf(e).toEqualTypeOf<ValidationError>()
    if (isRealtimeError(e)) expectTypeOf(e).toEqualTypeOf<RealtimeError>()
  })

  it('every error carries code, status and requestId; some carry more', () => {
    expectTypeOf<TandemError['code']>().toEqualTypeOf<string>()
    expectTypeOf<TandemError['status']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<TandemError['requestId']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<RateLimitError['retryAfterMs']>().toEqualTypeOf<number>()
    expectTypeOf<ValidationError['field']>().toEqualTypeOf<string>()
    expectTypeOf<RealtimeError['temporary']>().toEqualTypeOf<boolean>()
    expectTypeOf<ApiError>().toExtend<TandemError>()
    expectTypeOf<TandemError>().toExtend<Error>()
  })
})
