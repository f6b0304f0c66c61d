import { isTandemError } from '@tandem/core'
import { CONNECTIVITY_STRINGS, connectivityOf, connectivitySentence, type ConnectivityStrings } from './connectivity.js'
import './error-details.css'
import { describeError, humanError } from './format.js'
import { useOnline } from './use-online.js'

interface ErrorDetailsProps {
  error: unknown
  /** The sentence to show instead of the one chosen from the error's code and field. */
  message?: string
  /** The sentence's id: the field it is about points at it with aria-describedby. */
  id?: string
  /** Which service the sentence names when it is busy or out of reach. */
  service?: string
  /** The words for a failure of the connection (offline, the token endpoint out of reach). */
  strings?: Partial<ConnectivityStrings>
  'data-testid'?: string
}

/**
 * An error as a person reads it: one sentence, and the technical line (code, request id, the SDK's
 * message) folded in a disclosure, where support can still find it. The sentence is the alert
 * (read at once); the disclosure is not, so a screen reader is not read a request id. A failure
 * of the connection (connectivity.ts) ends by itself: its sentence is a polite status, not an alert.
 */
export function ErrorDetails({ error, message, id, service, strings, 'data-testid': testId }: ErrorDetailsProps) {
  const code = isTandemError(error) ? error.code : undefined
  const connectivity = connectivityOf(error, useOnline())
  return (
    <div className="error-details" data-testid={testId} data-code={code} data-connectivity={connectivity}>
      {connectivity ? (
        <p className="notice" role="status" id={id}>
          {message ?? connectivitySentence(connectivity, service ?? 'maps', { ...CONNECTIVITY_STRINGS, ...strings })}
        </p>
      ) : (
        <p className="error" role="alert" id={id}>
          {message ?? humanError(error, service)}
        </p>
      )}
      <details className="muted small">
        <summary>Technical details</summary>
        <code className="error-technical">{describeError(error)}</code>
      </details>
    </div>
  )
}
