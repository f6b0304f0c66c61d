/**
 * The words of push in the playground (the inbox's notification control and the dev list of the
 * emulator's recorded deliveries), in one place so an app can replace any of them: pass
 * `strings={{ … }}` to `<PushControl>` or `<PushDeliveries>`; what is left out keeps its default.
 */
export const PUSH_STRINGS = {
  heading: 'Notifications',
  /** The agent's button: new customer messages reach them with the inbox closed. */
  enable: 'Notify me of new messages',
  enabling: 'Turning notifications on…',
  on: 'Notifications on: customers’ messages reach you when no inbox tab is open.',
  disable: 'Turn off',
  off: 'Notifications off',
  denied: 'Notifications are blocked in your browser settings.',
  unsupported: 'This browser cannot show notifications from this page (it needs the app’s service worker).',
  failed: (reason: string | null) =>
    `Notifications could not be turned on${reason ? ` (${reason.replace(/_/g, ' ')})` : ''}. Try again.`,
}

export type PushStrings = typeof PUSH_STRINGS

/** The dev list's words (development only: a const of its own, so a production build drops it with the list). */
export const DELIVERIES_STRINGS = {
  /** What the emulator sent to push services. */
  deliveries: 'Push deliveries (dev)',
  deliveriesHint: 'What the emulator sent (or skipped) to push services, newest first. No keys or endpoints shown.',
  refresh: 'Refresh',
  noDeliveries: 'No push deliveries yet: close every tab of a subscribed user, then write to them.',
  deliveriesCount: (n: number) => (n === 1 ? '1 delivery' : `${n} deliveries`),
  loadFailed: (why: string) => `Could not read the deliveries: ${why}`,
  /** Read before each field of a delivery (visually hidden). */
  columns: { status: 'Status', title: 'Title', messageId: 'Message' },
}

export type DeliveriesStrings = typeof DELIVERIES_STRINGS
