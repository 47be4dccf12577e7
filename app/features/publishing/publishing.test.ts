import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { parseSubmission } from '#app/platform/forms/submission'
import { bodyWithoutTitle, markdownWithoutTitle } from '#app/features/content/posts'
import {
  httpUrlOrNull,
  plainField,
  approveForm,
  destinationForm,
  destinationPageForm,
  passesQualityGate,
  publishForm,
  reviewSettingsForm,
  unverifiedClaims,
} from './publishing'

describe('destination forms', () => {
  it('normalises a WordPress site URL and the Application Password as WordPress shows it', () => {
    const parsed = destinationForm.parse({
      kind: 'wordpress',
      siteUrl: 'blog.example.com/',
      username: ' admin ',
      appPassword: 'abcd efgh ijkl mnop',
      categories: 'Growth, SEO, Growth',
    })
    expect(parsed).toMatchObject({
      siteUrl: 'https://blog.example.com',
      username: 'admin',
      appPassword: 'abcdefghijklmnop',
      categories: ['Growth', 'SEO'],
      postStatus: 'publish',
      unpublishMode: 'draft',
    })
  })

  it('keeps category and tag names as plain text, and takes a Webflow structured data field', () => {
    const parsed = destinationForm.parse({
      kind: 'wordpress',
      siteUrl: 'https://blog.example.com',
      username: 'admin',
      categories: '<b>Growth</b>, Growth, &lt;script&gt;x&lt;/script&gt;, <img src=x onerror=alert(1)>',
      tags: 'Tom &amp; Jerry, <i>founders</i>',
    })
    expect(parsed).toMatchObject({ categories: ['Growth'], tags: ['Tom & Jerry', 'founders'] })
    const webflow = {
      kind: 'webflow',
      siteId: 'a'.repeat(24),
      collectionId: 'b'.repeat(24),
      bodyField: 'post-body',
    }
    expect(destinationForm.parse({ ...webflow, jsonLdField: 'structured-data' })).toMatchObject({
      jsonLdField: 'structured-data',
    })
    expect(destinationForm.parse({ ...webflow, jsonLdField: '' })).not.toHaveProperty('jsonLdField', expect.anything())
    expect(destinationForm.safeParse({ ...webflow, jsonLdField: '<script>' }).success).toBe(false)
  })

  it('refuses addresses with credentials, queries or other schemes, NUL bytes and bad keys', () => {
    const issues = (input: Record<string, unknown>) => {
      const result = destinationForm.safeParse(input)
      return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path[0], i.message]))
    }
    expect(issues({ kind: 'wordpress', siteUrl: 'https://u:p@blog.example.com', username: 'a' }).siteUrl).toMatch(
      /user name or password/,
    )
    expect(issues({ kind: 'wordpress', siteUrl: 'ftp://blog.example.com', username: 'a' }).siteUrl).toMatch(/https/)
    expect(issues({ kind: 'wordpress', siteUrl: 'https://blog.example.com/?x=1', username: 'a' }).siteUrl).toMatch(/\?/)
    expect(issues({ kind: 'wordpress', siteUrl: 'https://b.example', username: 'a\u0000b' }).username).toMatch(
      /invalid/,
    )
    expect(issues({ kind: 'ghost', adminUrl: 'https://x.ghost.io', adminApiKey: 'id:secret' }).adminApiKey).toMatch(
      /24 hex/,
    )
    expect(issues({ kind: 'webflow', siteId: 'x', collectionId: 'y', bodyField: 'post body' })).toMatchObject({
      siteId: expect.stringMatching(/24 hex/),
      collectionId: expect.stringMatching(/24 hex/),
      bodyField: expect.stringMatching(/slug/),
    })
    expect(issues({ kind: 'blogger' }).kind).toMatch(/WordPress, Ghost or Webflow/)
  })
})

describe('the settings page form', () => {
  const ghost = (extra: Record<string, string> = {}) =>
    new URLSearchParams({ kind: 'ghost', adminUrl: 'x.ghost.io', intent: 'save', ...extra })

  it('reads the Auto Pilot box as a browser posts it: absent means no (the API: absent means yes)', () => {
    const unticked = parseSubmission(ghost(), destinationPageForm)
    expect(unticked.status === 'success' && unticked.value.autopilot).toBe(false)
    const ticked = parseSubmission(ghost({ autopilot: 'on' }), destinationPageForm)
    expect(ticked.status === 'success' && ticked.value.autopilot).toBe(true)
    expect(destinationForm.parse({ kind: 'ghost', adminUrl: 'x.ghost.io' }).autopilot).toBe(true)
  })

  it('names the fields in error by their form names and never echoes the secret back', () => {
    const submission = parseSubmission(
      ghost({ adminUrl: '', adminApiKey: 'nope', name: 'Team blog' }),
      destinationPageForm,
    )
    const reply = submission.reply({ hideFields: ['adminApiKey'] })
    expect(reply.error).toMatchObject({
      adminUrl: ['Admin API URL is required.'],
      adminApiKey: [expect.stringMatching(/24 hex/)],
    })
    expect(reply.initialValue).toMatchObject({ name: 'Team blog', kind: 'ghost' })
    expect(reply.initialValue).not.toHaveProperty('adminApiKey')
  })
})

describe('publishing rules', () => {
  it('passes the bar only with a score at least N and no unverified claim', () => {
    expect(passesQualityGate({ seoScore: 80, claims: [{ text: 'a', sourceUrl: 'https://s' }] }, 80).passes).toBe(true)
    const ledger = [
      { text: '62% were late.', status: 'verified', sourceUrl: 'https://s' },
      { text: 'Many founders agree.', status: 'rewritten', sourceUrl: null },
      { text: '', status: 'removed', sourceUrl: null },
    ]
    expect(passesQualityGate({ seoScore: 90, claims: ledger }, 80).passes).toBe(true)
    expect(
      passesQualityGate(
        { seoScore: 100, claims: [...ledger, { text: '73%', status: 'unverified', sourceUrl: null }] },
        0,
      ).reasons,
    ).toEqual(['1 claim is not verified against its source'])
    expect(passesQualityGate({ seoScore: 79, claims: [] }, 80).reasons).toEqual(['its SEO score is 79, below 80'])
    expect(passesQualityGate({ seoScore: null, claims: null }, 0).reasons).toEqual(['the post has no SEO score yet'])
    expect(passesQualityGate({ seoScore: 99, claims: [{ text: '73%', sourceUrl: null }, {}] }, 80).reasons).toEqual([
      '2 claims are not verified against their source',
    ])
    expect(unverifiedClaims('nonsense')).toBe(0)
  })

  it('validates publish requests and review settings', () => {
    vi.useFakeTimers({ now: new Date('2026-11-28T15:00:00Z'), toFake: ['Date'] })
    onTestFinished(() => {
      vi.useRealTimers()
    })
    expect(publishForm.safeParse({ targets: [] }).success).toBe(false)
    expect(publishForm.parse({ targets: ['webhook', 'webhook'], publishAt: '2026-12-01' })).toEqual({
      targets: ['webhook'],
      publishAt: new Date('2026-12-01T09:00:00Z'),
    })
    expect(publishForm.safeParse({ targets: ['webhook'], publishAt: 'soon' }).success).toBe(false)
    expect(reviewSettingsForm.parse({ reviewMode: 'review', minScore: '70', approveAfterHours: '12' })).toEqual({
      reviewMode: 'review',
      minScore: 70,
      approveAfterHours: 12,
    })
    expect(reviewSettingsForm.safeParse({ reviewMode: 'quality', minScore: '101' }).success).toBe(false)
  })

  it('reads the publish form as posted: one ticked box is one target, none is a message', () => {
    const one = parseSubmission(new URLSearchParams({ targets: 'webhook', publishAt: '' }), publishForm)
    expect(one.status === 'success' && one.value).toEqual({ targets: ['webhook'], publishAt: undefined })
    const none = parseSubmission(new URLSearchParams({ publishAt: '' }), publishForm)
    expect(none.reply().error).toEqual({ targets: ['Choose at least one destination.'] })
    const bad = parseSubmission(
      new URLSearchParams([
        ['targets', 'webhook'],
        ['targets', 'x'],
      ]),
      publishForm,
    )
    expect(bad.reply().error).toEqual({ 'targets[1]': ['Unknown destination.'] })
    const approve = parseSubmission(new URLSearchParams({ publishAt: 'soon' }), approveForm)
    expect(approve.reply().error).toEqual({ publishAt: ['Enter a date like 2026-12-01.'] })
  })

  it('schedules today or later, never a day gone by (without the browser’s date check the form no longer has)', () => {
    vi.useFakeTimers({ now: new Date('2026-11-28T15:00:00Z'), toFake: ['Date'] })
    try {
      const day = (publishAt: string) => approveForm.safeParse({ publishAt })
      expect(day('2026-11-27').error?.issues.map((i) => i.message)).toEqual(['Choose today or a later date.'])
      expect(day('2026-11-28').data?.publishAt).toEqual(new Date('2026-11-28T09:00:00Z'))
      expect(day('2026-12-01').success).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('what a remote site gets and gives back', () => {
  it('sends titles and excerpts without tags', () => {
    expect(plainField('<script>alert(1)</script>How to <b>invoice</b> clients')).toBe('How to invoice clients')
    expect(plainField('Pay <img src=x onerror=alert(1)>late? 3 < 5 and 5 > 3')).toBe('Pay late? 3 < 5 and 5 > 3')
    expect(plainField('A <!-- note --> title\n  here')).toBe('A title here')
  })

  it('sends the body without the title: the title goes in its own field', () => {
    expect(bodyWithoutTitle('<h1 id="t">Pay on time</h1>\n<p>Intro.</p><h2>Why</h2>')).toBe('<p>Intro.</p><h2>Why</h2>')
    expect(bodyWithoutTitle('<p>No title.</p><h1>Later</h1>')).toBe('<p>No title.</p><h1>Later</h1>')
    expect(markdownWithoutTitle('# Pay on time\n\nIntro.\n\n## Why')).toBe('Intro.\n\n## Why')
    expect(markdownWithoutTitle('## Why\n\nText.')).toBe('## Why\n\nText.')
  })

  it('keeps only http(s) links the site answers with', () => {
    expect(httpUrlOrNull('https://blog.example/p/1')).toBe('https://blog.example/p/1')
    expect(httpUrlOrNull('javascript:alert(1)')).toBeNull()
    expect(httpUrlOrNull('JaVaScRiPt:alert(1)')).toBeNull()
    expect(httpUrlOrNull('data:text/html,x')).toBeNull()
    expect(httpUrlOrNull('/relative')).toBeNull()
    expect(httpUrlOrNull(null)).toBeNull()
  })
})
