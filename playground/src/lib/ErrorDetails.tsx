import { isTandemError } from '@tandem/core'
import './error-details.css'
import { describeError, humanError } from './format.js'

interface ErrorDetailsProps {
  error: unknown
  /** The sentence to show instead of the one chosen from the error's code and field. */
  message?: string
  /** The sentence's id: the field it is about points at it with aria-describedby. */
  id?: string
  /** Which service the sentence names when it is busy or out of reach. */
  service?: string
  'data-testid'?: string
}

/**
 * An error as a person reads it: one sentence, and the technical line (code, request id, the SDK's
 * message) folded in a disclosure, where support can still find it. The sentence is the alert
 * (read at once); the disclosure is not, so a screen reader is not read a request id.
 */
export function ErrorDetails({ error, message, id, service, 'data-testid': testId }: ErrorDetailsProps) {
  const code = isTandemError(error) ? error.code : undefined
  return (
    <div className="error-details" data-testid={testId} data-code={code}>
      <p className="error" role="alert" id={id}>
        {message ?? humanError(error, service)}
      </p>
      <details className="muted small">
        <summary>Technical details</summary>
        <code className="error-technical">{describeError(error)}</code>
      </details>
    </div>
  )
}
