import { describe, expect, it } from 'vitest'
import { createClient as createFull } from '../client.js'
import { createBaseClient as createModular, isValidationError, logTo } from '../entries/client.js'
import { memoryLogger } from './helpers.js'

const auth = { url: 'https://backend.example/token' }

describe('the logger only for a client given one', () => {
  it('the modular client refuses a console-shaped logger by name (logTo(console) is the rule)', () => {
    const { logger } = memoryLogger()
    let caught: unknown
    try {
      createModular({ auth, logger })
    } catch (error) {
      caught = error
    }
    expect(isValidationError(caught) && caught.field).toBe('logger')
    expect(() => createModular({ auth, logger: logTo(logger) })).not.toThrow()
    expect(() => createModular({ auth, logger: false })).not.toThrow()
  })

  it('the full client takes logTo(console), and a console-shaped logger until the next minor (deprecated)', () => {
    const { logger } = memoryLogger()
    expect(() => createFull({ auth, logger: logTo(logger), logLevel: 'debug' })).not.toThrow()
    expect(() => createFull({ auth, logger, logLevel: 'debug' })).not.toThrow()
  })
})
