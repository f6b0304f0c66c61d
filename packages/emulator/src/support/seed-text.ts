// Hand-written vocabulary for the seeded support data: faker supplies people and numbers,
// these supply text a help desk would really contain (faker has no support tickets).

export const MAILBOXES = [
  { name: 'Customer Support', slug: 'support' },
  { name: 'Billing', slug: 'billing' },
  { name: 'Sales', slug: 'sales' },
  { name: 'Partners', slug: 'partners' },
] as const

export const TAGS = [
  'billing',
  'refund',
  'invoice',
  'upgrade',
  'downgrade',
  'cancellation',
  'trial',
  'pricing',
  'login',
  'password-reset',
  'two-factor',
  'sso',
  'account',
  'permissions',
  'bug',
  'feature-request',
  'api',
  'webhooks',
  'integration',
  'slack',
  'zapier',
  'export',
  'import',
  'mobile',
  'ios',
  'android',
  'performance',
  'outage',
  'data-loss',
  'security',
  'gdpr',
  'vip',
  'enterprise',
  'onboarding',
  'training',
  'feedback',
  'urgent',
  'follow-up',
  'duplicate',
  'spam',
] as const

/** `{product}`, `{order}`, `{plan}`, `{browser}`, `{n}` are filled per conversation. */
export interface Topic {
  subject: string
  message: string
  reply: string
  tags: readonly string[]
}

export const TOPICS: readonly Topic[] = [
  {
    subject: "Can't log in to my account",
    message:
      'Every time I try to sign in I get "invalid credentials", but I am sure the password is right. I use {browser}.',
    reply: 'Sorry about that! I have sent a password reset link to your email; it is valid for one hour.',
    tags: ['login', 'password-reset'],
  },
  {
    subject: 'Refund for order #{order}',
    message: 'I was charged twice for order #{order}. Could you refund the duplicate charge?',
    reply:
      'You are right, the second charge was a mistake. The refund is on its way and should show in 5–10 business days.',
    tags: ['billing', 'refund'],
  },
  {
    subject: 'Invoice missing VAT number',
    message: 'Our invoice for {plan} does not show our VAT number, which our accountant needs.',
    reply: 'I have added the VAT number to your billing profile and re-issued the invoice.',
    tags: ['billing', 'invoice'],
  },
  {
    subject: 'Upgrade to the {plan} plan',
    message: 'We would like to move the whole team to {plan}. Do we pay the difference for this month?',
    reply: 'Yes, upgrades are prorated: you pay only for the rest of the current month.',
    tags: ['upgrade', 'pricing'],
  },
  {
    subject: 'How do I cancel my subscription?',
    message: 'We no longer need {product}. How do I cancel without losing our exported data?',
    reply: 'You can cancel under Settings → Billing. Your data stays available for export for 30 days.',
    tags: ['cancellation', 'export'],
  },
  {
    subject: 'Two-factor codes not accepted',
    message: 'My authenticator app codes are rejected since I changed phones.',
    reply: 'I have reset two-factor authentication on your account; you can enrol the new phone at next sign-in.',
    tags: ['two-factor', 'security'],
  },
  {
    subject: 'SSO setup with Okta',
    message: 'We are setting up SAML single sign-on with Okta and the assertion fails with error {n}.',
    reply:
      'Error {n} means the audience URI does not match. It should be exactly the ACS URL shown in your SSO settings.',
    tags: ['sso', 'enterprise'],
  },
  {
    subject: 'API returns 429 too often',
    message: 'Our integration gets 429 responses after about {n} requests per minute.',
    reply: 'Your plan allows 500 requests per minute; please honour the Retry-After header and spread requests out.',
    tags: ['api', 'performance'],
  },
  {
    subject: 'Webhook deliveries failing',
    message: 'We stopped receiving webhooks yesterday; our endpoint logs show nothing.',
    reply:
      'Deliveries to your endpoint timed out after 10 seconds. Please answer with 2xx quickly and process in the background.',
    tags: ['webhooks', 'integration'],
  },
  {
    subject: 'Slack integration stopped posting',
    message: 'New conversations are no longer posted to our #support channel in Slack.',
    reply:
      'The Slack token was revoked on your side. Reconnecting the integration under Settings → Integrations fixes it.',
    tags: ['slack', 'integration'],
  },
  {
    subject: 'Export all conversations to CSV',
    message: 'Is there a way to export every conversation from the last year to CSV?',
    reply: 'Yes: Reports → Export lets you pick a date range; large exports are emailed to you as a link.',
    tags: ['export'],
  },
  {
    subject: 'Import from our old help desk',
    message: 'We are migrating about {n} tickets from our old help desk. Can you help?',
    reply: 'Happy to help! Our import tool takes a CSV or a JSON export; I have sent you the template.',
    tags: ['import', 'onboarding'],
  },
  {
    subject: 'Mobile app crashes on start',
    message: 'The {product} app crashes right after the splash screen on my phone.',
    reply: 'Thanks for the report. Version 4.2.1, out today, fixes this crash; please update from the store.',
    tags: ['mobile', 'bug'],
  },
  {
    subject: 'Dashboard is very slow',
    message: 'Loading the dashboard takes more than {n} seconds since this morning.',
    reply: 'We found a slow database query affecting some accounts and deployed a fix. It should be fast again.',
    tags: ['performance', 'bug'],
  },
  {
    subject: 'Feature request: dark mode',
    message: 'Would love a dark mode for {product}, our team works late shifts.',
    reply: 'Thank you for the suggestion! I have added your vote to the dark mode request.',
    tags: ['feature-request', 'feedback'],
  },
  {
    subject: 'Add a teammate with limited permissions',
    message: 'How can I invite a contractor who should only see the Billing mailbox?',
    reply: 'Invite them as a Light user and grant access to the Billing mailbox only, under Settings → Users.',
    tags: ['permissions', 'account'],
  },
  {
    subject: 'Delete my personal data (GDPR)',
    message: 'Under GDPR I ask you to delete all personal data you hold about me.',
    reply: 'Your request is confirmed. All personal data will be erased within 30 days and we will confirm by email.',
    tags: ['gdpr', 'security'],
  },
  {
    subject: 'Trial extension request',
    message: 'Our trial ends tomorrow but our procurement needs another week to approve {plan}.',
    reply: 'No problem, I have extended your trial by 14 days.',
    tags: ['trial', 'pricing'],
  },
  {
    subject: 'Quote for {n} seats',
    message: 'Could you send a quote for {n} seats on the {plan} plan, billed yearly?',
    reply: 'Attached is the quote for {n} seats, including the 15 % yearly discount.',
    tags: ['pricing', 'enterprise'],
  },
  {
    subject: 'Order #{order} arrived damaged',
    message: 'My {product} (order #{order}) arrived with a cracked case.',
    reply: 'Sorry to hear that! A replacement is on its way; no need to return the damaged one.',
    tags: ['refund', 'follow-up'],
  },
  {
    subject: 'Password reset email never arrives',
    message: 'I requested a reset three times and got no email, not even in spam.',
    reply: 'Your email provider rejected our messages. I have whitelisted the address; please try once more.',
    tags: ['password-reset', 'login'],
  },
  {
    subject: 'Zapier zap fails with 401',
    message: 'Our Zapier zap fails with "401 unauthorized" since yesterday.',
    reply: 'API tokens rotated on the 1st; reconnecting the account in Zapier picks up the new token.',
    tags: ['zapier', 'api'],
  },
  {
    subject: 'Partnership inquiry',
    message: 'We build {product} and would like to discuss an integration partnership.',
    reply: 'Thanks for reaching out! Our partnerships team will contact you this week to set up a call.',
    tags: ['enterprise', 'integration'],
  },
  {
    subject: 'Service outage this morning?',
    message: 'Nothing loaded between 9 and 10 this morning. Was there an outage?',
    reply: 'Yes, a network incident affected one region for 42 minutes. The full post-mortem is on our status page.',
    tags: ['outage', 'urgent'],
  },
  {
    subject: 'Training session for new agents',
    message: 'We hired {n} new agents. Do you offer onboarding training?',
    reply: 'Yes! I have booked a one-hour live training for your team; the invitation is in your inbox.',
    tags: ['training', 'onboarding'],
  },
]

export const FOLLOW_UPS = [
  'Thanks, that worked!',
  'I tried that but it still does not work for me.',
  'Could you give me an update on this, please?',
  'Perfect, thank you for the quick answer.',
  'One more question: does this also apply to the rest of my team?',
  'I am attaching a screenshot of the error I see.',
]

export const AGENT_REPLIES = [
  'Thanks for the details! I am looking into it and will get back to you shortly.',
  'Could you tell me which browser and version you are using?',
  'Good news: this is fixed now. Let me know if anything else comes up.',
  'I have escalated this to our engineering team and will keep you posted.',
  'Glad it works now! I will close this conversation, just reply if you need us again.',
]

export const NOTES = [
  'Customer is on an annual contract, renewal next month.',
  'Escalated to engineering as BUG-{n}.',
  'Checked the logs: the request never reached our servers.',
  'VIP account, please answer within the hour.',
  'Same issue as last week, probably a duplicate.',
]

export const PLANS = ['Starter', 'Team', 'Business', 'Enterprise'] as const
export const BROWSERS = ['Chrome 131', 'Firefox 133', 'Safari 18', 'Edge 131'] as const
