import { describe, expect, it } from 'vitest'
import { api } from '#tests/setup/app'

/** The words a visitor reads: scripts (the loader's JSON) and tags dropped, entities decoded, spaces collapsed. */
function visibleText(html: string) {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
}

describe('pricing that sells honestly (decision 0354)', () => {
  it('shows what the longer plans come to a month and save, what each plan includes, cancelling and refunds', async () => {
    const page = await api('/pricing')
    expect(page.status).toBe(200)
    const text = visibleText(page.text)
    for (const shown of [
      'Choose Your Growth Plan',
      // The 3-month and yearly plans: per month and the saving against the monthly plan, from the prices.
      '$129.90 per 3 months $43.30 a month · Save 13% $19.80 less than 3 months of Premium Monthly ($149.70).',
      '$499.90 per year $41.66 a month · Save 17% $98.90 less than 12 months of Premium Monthly ($598.80).',
      // What each plan includes: the limits the server enforces, Auto Pilot, publishing and rankings.
      '7 days, no credit card',
      '10 keyword analyses in total',
      '5 AI-generated blog posts in total',
      '500 keyword analyses a month',
      '100 AI-generated blog posts a month',
      'Publish to WordPress, Ghost, Webflow or a webhook to any other system',
      'Rank tracking: the Google position of up to 200 keywords, checked every day',
      'Google Search Console: the clicks, impressions and average position of your posts',
      // Cancelling and refunds, as decision 0354 words them.
      'Cancel any time with Cancel Subscription on your profile. Nothing is charged again, and you keep Premium until the end of the month, 3 months or year you have already paid for.',
      'Payments are not refunded, in full or in part: when you cancel, you keep Premium until the period you paid for ends.',
      'the duplicate is cancelled at once and refunded in full',
    ]) {
      expect(text).toContain(shown)
    }
    expect(text.match(/Get Started/g)).toHaveLength(3)
    expect(page.text.match(/href="\/signin\?redirectTo=%2Fpricing"/g)).toHaveLength(3)
    expect(text).not.toMatch(/unlimited/i)

    // The landing page keeps its two plans and names the longer periods with the same figures.
    const landing = visibleText((await api('/')).text)
    expect(landing).toContain('Most Popular')
    expect(landing).toContain(
      'Premium also comes billed every 3 months ($43.30 a month, save 13%) or yearly ($41.66 a month, save 17%), with the same monthly allowance.',
    )
  })
})
