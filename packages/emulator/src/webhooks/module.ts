// Signed webhooks from the services to the app's backend (issue 3).
export interface WebhookOptions {}

export interface WebhookEvent {
  /** e.g. 'conversation.created', 'channel.occupied'. */
  type: string
  data: unknown
}

/** Test controls: register endpoints, read the delivery log. */
export interface WebhookControls {}

export interface WebhookModule {
  /** Queue an event for every endpoint the app registered for its type. Never throws. */
  dispatch(appId: string, event: WebhookEvent): void
  controls: WebhookControls
  reset(): void
  close(): void
}

export function createWebhookModule(_options: WebhookOptions = {}): WebhookModule {
  return { dispatch() {}, controls: {}, reset() {}, close() {} }
}
