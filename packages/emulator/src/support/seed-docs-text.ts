// Hand-written help-center text for the seeded docs: collections, articles and their steps
// (the conversations' vocabulary is seed-text.ts).

export const DOC_COLLECTIONS = [
  {
    name: 'Getting Started',
    description: 'Set up your account and learn the basics.',
    titles: [
      'Creating your account',
      'Inviting your team',
      'Setting up your first mailbox',
      'A tour of the dashboard',
      'Connecting your email address',
      'Importing existing conversations',
      'Choosing the right plan',
      'Setting your business hours',
      'Customizing your notifications',
      'Using keyboard shortcuts',
    ],
  },
  {
    name: 'Billing & Plans',
    description: 'Invoices, payments, upgrades and refunds.',
    titles: [
      'Updating your payment method',
      'Downloading invoices',
      'Adding a VAT number',
      'Upgrading or downgrading your plan',
      'How prorated charges work',
      'Requesting a refund',
      'Cancelling your subscription',
      'Paying by bank transfer',
      'Understanding seat-based pricing',
      'Nonprofit and education discounts',
    ],
  },
  {
    name: 'Account & Security',
    description: 'Passwords, two-factor authentication and single sign-on.',
    titles: [
      'Resetting your password',
      'Enabling two-factor authentication',
      'Setting up SAML single sign-on',
      'Managing user roles and permissions',
      'Reviewing the audit log',
      'Restricting access by IP address',
      'Deleting your account',
      'Requesting your personal data (GDPR)',
      'Session timeouts explained',
      'Recovering a locked account',
    ],
  },
  {
    name: 'Conversations',
    description: 'Working with conversations, tags and saved replies.',
    titles: [
      'Assigning conversations',
      'Using tags to organize conversations',
      'Writing private notes',
      'Creating saved replies',
      'Merging duplicate conversations',
      'Snoozing a conversation',
      'Searching conversations',
      'Conversation statuses explained',
      'Forwarding a conversation',
      'Collision detection',
    ],
  },
  {
    name: 'Integrations',
    description: 'Connect Slack, Zapier and your own tools.',
    titles: [
      'Connecting Slack',
      'Automating workflows with Zapier',
      'Syncing contacts from your CRM',
      'Receiving webhooks',
      'Verifying webhook signatures',
      'Embedding the chat widget',
      'Connecting Shopify',
      'Using the Salesforce app',
      'Building a custom app',
      'Troubleshooting integrations',
    ],
  },
  {
    name: 'API & Developers',
    description: 'Tokens, rate limits and the REST API.',
    titles: [
      'Getting started with the API',
      'Minting short-lived tokens',
      'Rate limits and retries',
      'Paginating with cursors',
      'Idempotent requests',
      'Error codes reference',
      'Filtering conversations by date',
      'Testing with the local emulator',
      'API changelog',
      'Versioning policy',
    ],
  },
] as const

/** Drafts: an agent sees them, a customer never does (one in each of three collections). */
export const DRAFT_TITLES: ReadonlySet<string> = new Set([
  'Snoozing a conversation',
  'Using the Salesforce app',
  'API changelog',
])

export const ARTICLE_STEPS = [
  'Open **Settings** from the menu in the top-right corner.',
  'Choose the section named in the title of this article.',
  'Review the current configuration before you change anything.',
  'Make your change and click **Save**; it applies to your whole team at once.',
  'If something looks wrong, contact us from the Help menu and mention this article.',
  'Administrators receive an email confirming the change.',
]
