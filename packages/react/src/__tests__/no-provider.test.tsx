// Hooks outside their provider throw a TandemError that says what to do (issue 18, finding 6).
import { isTandemError } from '@tandem/core'
import { renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { useResources, useTandem } from '../index.js'

describe('outside <TandemProvider>', () => {
  it('every hook throws a TandemError no_provider naming the fix', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {}) // React logs the render error
    const hooks: (() => unknown)[] = [() => useTandem(), () => useResources('support/conversations')]
    for (const hook of hooks) {
      let error: unknown
      try {
        renderHook(hook)
      } catch (e) {
        error = e
      }
      expect(isTandemError(error)).toBe(true)
      expect(error).toMatchObject({ code: 'no_provider' })
      expect(String((error as Error).message)).toMatch(/TandemProvider/)
    }
    quiet.mockRestore()
  })
})
