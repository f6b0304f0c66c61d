/**
 * The words of persistence in the playground (the waiting count, the storage notice, Log out, the
 * page of a tab signed out elsewhere), in one place so an app can replace any of them: pass
 * `strings={{ … }}` to `<OutboxStatus>`, `<StorageNotice>`, `<LogOutButton>` or `<SignedOut>`;
 * what is left out keeps its default.
 */
export const PERSIST_STRINGS = {
  /** Beside the connection badge while writes wait in the outbox (nothing at 0). */
  waiting: (n: number) => (n === 1 ? '1 change waiting to be sent' : `${n} changes waiting to be sent`),
  waitingTitle: 'Saved on this device: they are sent when the service answers again, after a reload too',
  /** Once, when storage is full or refused (a private window): the outbox and the cache live in memory. */
  fallback: "Can't save on this device: changes are kept until you close the tab.",
  dismiss: 'Dismiss',
  logOut: 'Log out',
  logOutTitle:
    'Wipes what this browser saved for you (the inbox and the waiting changes) in every tab, then starts as someone new',
  /** The page a tab shows once the user logged out in another of their tabs. */
  signedOutTitle: 'You were signed out in another tab',
  signedOut: (user: string) =>
    `${user} logged out in another tab, so this one is signed out too: nothing of ${user} is kept on this device, and the connection is closed.`,
  signInAgain: 'Sign in again',
}

export type PersistStrings = typeof PERSIST_STRINGS
