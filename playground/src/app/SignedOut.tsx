import { useEffect, useRef, type MouseEvent } from 'react'
import { PERSIST_STRINGS, type PersistStrings } from './persist-strings.js'
import './signed-out.css'

/**
 * What a tab shows once its user logged out in another tab (the saved cache said so: `loggedOut`
 * of @tandem/core/persist): the app is gone, with a way to sign in again. Focus moves to the
 * heading, so a screen reader says what happened, and the link is the next Tab stop.
 */
export function SignedOut({ user, strings = PERSIST_STRINGS }: { user: string; strings?: PersistStrings }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  // The same page as this user again: a new page load is a new session (the playground has no sign-in).
  // Often the very URL of this page, which a click would only scroll to: it is loaded again instead.
  const again = new URL(location.href)
  again.searchParams.set('user', user)
  const signIn = (e: MouseEvent) => {
    e.preventDefault()
    if (again.href === location.href) location.reload()
    else location.assign(again)
  }
  return (
    <main className="signed-out" data-testid="signed-out" aria-labelledby="signed-out-title">
      <h1 id="signed-out-title" tabIndex={-1} ref={heading}>
        {strings.signedOutTitle}
      </h1>
      <p>{strings.signedOut(user)}</p>
      <p>
        <a href={`${again.pathname}${again.search}${again.hash}`} onClick={signIn}>
          {strings.signInAgain}
        </a>
      </p>
    </main>
  )
}
