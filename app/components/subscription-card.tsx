import type { UsageSummary } from '#app/server/quota.server'

const STATUS_LABEL: Record<UsageSummary['status'], string> = {
  trial: 'Free Trial',
  active: 'Active',
  past_due: 'Past Due',
  canceled: 'Canceled',
}

/** The profile's subscription card: status and usage as count/limit. (The billing issue adds cost, renewal and actions.) */
export function SubscriptionCard({ summary }: { summary: Omit<UsageSummary, 'stripeCustomerId'> }) {
  return (
    <section className="card" aria-labelledby="subscription-title" data-testid="subscription-card">
      <h2 id="subscription-title" className="text-lg font-semibold">Subscription</h2>
      <dl className="mt-4 grid grid-cols-2 gap-4 text-sm">
        <div>
          <dt className="text-slate-600">Status</dt>
          <dd className="font-medium" data-testid="subscription-status">{STATUS_LABEL[summary.status]}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Keyword searches</dt>
          <dd className="font-medium">{summary.keywordSearchCount}/{summary.limits.keywordSearches}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Blog posts</dt>
          <dd className="font-medium">{summary.blogPostCount}/{summary.limits.blogPosts}</dd>
        </div>
      </dl>
    </section>
  )
}
