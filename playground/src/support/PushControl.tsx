import type { PushController } from '@tandem/core/push'
import { usePush } from '@tandem/react/push'
import { useEffect, useMemo, useRef } from 'react'
import { PUSH_STRINGS, type PushStrings } from '../app/push-strings.js'

/**
 * The agent's web push: "Notify me of new messages" asks permission from the click, then customers'
 * messages reach the agent as notifications while no inbox tab is open (the service's rule). One
 * button whose words follow the state, so focus stays on it; each change is said politely.
 */
export function PushControl({ push, strings: overrides }: { push: PushController; strings?: Partial<PushStrings> }) {
  const t = useMemo(() => ({ ...PUSH_STRINGS, ...overrides }), [overrides])
  const { status, reason } = usePush(push)
  const note = useRef<HTMLParagraphElement>(null)

  const text =
    status === 'unsupported'
      ? t.unsupported
      : status === 'subscribing'
        ? t.enabling
        : status === 'subscribed'
          ? t.on
          : status === 'denied'
            ? t.denied
            : status === 'error'
              ? t.failed(reason)
              : reason === 'disabled'
                ? t.off
                : ''
  const hasButton = status !== 'denied' && status !== 'unsupported'

  // The button goes away (blocked) while focused: focus goes to the sentence that says why.
  const hadFocus = useRef(false)
  useEffect(() => {
    if (!hasButton && hadFocus.current) note.current?.focus()
  }, [hasButton])

  return (
    <div className="push-control" data-testid="push-control" data-status={status}>
      <h2>{t.heading}</h2>
      <p ref={note} className="small" tabIndex={-1} role="status">
        {text}
      </p>
      {hasButton && (
        <button
          type="button"
          data-testid="push-toggle"
          // aria-disabled while busy: a disabled button drops the keyboard's focus to the body.
          aria-disabled={status === 'subscribing'}
          onFocus={() => (hadFocus.current = true)}
          onBlur={() => (hadFocus.current = false)}
          onClick={() => {
            if (status === 'subscribed') void push.disable()
            else if (status !== 'subscribing') void push.enable()
          }}
        >
          {status === 'subscribed' ? t.disable : t.enable}
        </button>
      )}
    </div>
  )
}
