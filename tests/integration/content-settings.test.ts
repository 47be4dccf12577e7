import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { CONTENT_SETTINGS_MESSAGES } from '#app/features/content/content-settings'
import { unverifiedPolicyOf } from '#app/features/content/content-settings.server'
import { db, schema } from '#app/platform/db/client.server'
import { fakeControl, webControl } from '#tests/fakes/client'
import { api, createTestUser } from '#tests/setup/app'

/** Business context and voice: /settings/content (forms) and /api/settings/content (JSON), same rules. */
const siteUrl = () => process.env.FAKE_SITE_URL!.replace(/\/+$/, '')

const valid = () => ({
  productService: 'Newsletter software for indie makers',
  marketSegment: 'Solo founders who write a weekly newsletter',
  website: siteUrl(),
  valueProposition: 'Send better newsletters in half the time',
  ctaText: 'Start your free trial',
  ctaUrl: `${siteUrl()}/signup`,
  tone: 'expert',
  toneNotes: 'British spelling',
  avoid: 'cheapest\nguaranteed',
  writingSample: '',
  writingSampleUrl: '',
})

async function stored(userId: string) {
  const [row] = await db.select().from(schema.contentSettings).where(eq(schema.contentSettings.userId, userId))
  return row ?? null
}

describe('content settings API', () => {
  it('reads the defaults, saves every field, and reads a writing sample from a page of the own site', async () => {
    const user = await createTestUser()
    const before = await api('/api/settings/content', { as: user })
    expect(before.status).toBe(200)
    expect(before.body.settings).toMatchObject({
      productService: 'email marketing software',
      marketSegment: 'Indie SaaS founders',
      website: 'https://example.com',
      tone: 'friendly',
      ctaText: '',
    })

    const path = `/blog/our-voice-${crypto.randomBytes(3).toString('hex')}`
    await webControl('site').page({
      path,
      html: `<html><head><title>Our voice</title><script>steal()</script></head><body><nav>Menu</nav><main>
        <h1>How we write</h1><p>${'We write short, warm sentences for busy founders who ship every week. '.repeat(4)}</p>
        </main><footer>Footer text</footer></body></html>`,
    })
    const res = await api('/api/settings/content', {
      method: 'PUT',
      as: user,
      json: { ...valid(), writingSampleUrl: `${siteUrl()}${path}` },
    })
    expect(res.status).toBe(200)
    expect(res.body.message).toBe(CONTENT_SETTINGS_MESSAGES.saved)
    const settings = res.body.settings as Record<string, string>
    const { writingSample: _pasted, ...sent } = valid()
    expect(settings).toMatchObject({ ...sent, writingSampleUrl: `${siteUrl()}${path}` })
    expect(settings.writingSample).toContain('We write short, warm sentences')
    expect(settings.writingSample).not.toContain('steal()')
    expect(settings.writingSample).not.toContain('Footer text')
    const fetched = await fakeControl('site').requests({ method: 'GET', path })
    expect(fetched.length).toBe(1)

    const [u] = await db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(u).toMatchObject({ productService: valid().productService, website: siteUrl() })
    expect(await stored(user.id)).toMatchObject({
      tone: 'expert',
      avoid: 'cheapest\nguaranteed',
      ctaText: valid().ctaText,
    })

    // Saving again with the same URL and the sample text as it is does not fetch the page again.
    const again = await api('/api/settings/content', {
      method: 'PUT',
      as: user,
      json: { ...settings, tone: 'direct' },
    })
    expect(again.status).toBe(200)
    expect((await fakeControl('site').requests({ method: 'GET', path })).length).toBe(1)
    expect((await api('/api/settings/content', { as: user })).body.settings).toMatchObject({ tone: 'direct' })
  })

  it('rejects bad input field by field with 400 and writes nothing', async () => {
    const user = await createTestUser()
    const res = await api('/api/settings/content', {
      method: 'PUT',
      as: user,
      json: {
        ...valid(),
        productService: '  ',
        website: 'not a url',
        ctaUrl: 'javascript:alert(1)',
        tone: 'angry',
        valueProposition: 'x'.repeat(201),
      },
    })
    expect(res.status).toBe(400)
    const errors = res.body.errors as Record<string, string[]>
    expect(errors.productService).toEqual(['Product/Service is required.'])
    expect(errors.website?.[0]).toMatch(/valid URL/)
    expect(errors.ctaUrl?.[0]).toMatch(/valid URL/)
    expect(errors.tone).toEqual(['Please choose a tone from the list.'])
    expect(errors.valueProposition).toEqual(['Value proposition must be at most 200 characters.'])
    expect(typeof res.body.message).toBe('string')
    expect(await stored(user.id)).toBeNull()

    const half = await api('/api/settings/content', {
      method: 'PUT',
      as: user,
      json: { ...valid(), ctaUrl: '' },
    })
    expect(half.status).toBe(400)
    expect((half.body.errors as Record<string, string[]>).ctaUrl).toEqual(['Add the URL your call to action leads to.'])

    const foreign = await api('/api/settings/content', {
      method: 'PUT',
      as: user,
      json: { ...valid(), writingSampleUrl: 'https://evil.example/page' },
    })
    expect(foreign.status).toBe(400)
    expect((foreign.body.errors as Record<string, string[]>).writingSampleUrl).toEqual([
      CONTENT_SETTINGS_MESSAGES.sampleNotOwn,
    ])

    await webControl('site').page({ path: '/broken-sample', status: 500, html: 'oops' })
    const broken = await api('/api/settings/content', {
      method: 'PUT',
      as: user,
      json: { ...valid(), writingSampleUrl: `${siteUrl()}/broken-sample` },
    })
    expect(broken.status).toBe(400)
    expect((broken.body.errors as Record<string, string[]>).writingSampleUrl).toEqual([
      CONTENT_SETTINGS_MESSAGES.sampleUnreadable,
    ])
    expect(await stored(user.id)).toBeNull()

    const notJson = await api('/api/settings/content', {
      method: 'PUT',
      as: user,
      body: '{',
      headers: { 'Content-Type': 'application/json' },
    })
    expect(notJson.status).toBe(400)
    expect((await api('/api/settings/content')).status).toBe(401)
  })
})

describe('when a figure cannot be verified (issue 32)', () => {
  const UNVERIFIED_MESSAGE = 'Please choose what happens to a figure that cannot be verified.'

  it('API: rewrite by default; a bad value is a 400 of its field; a choice is kept until changed', async () => {
    const user = await createTestUser()
    expect((await api('/api/settings/content', { as: user })).body.settings).toMatchObject({
      unverifiedClaims: 'rewrite',
    })
    expect(await unverifiedPolicyOf(user.id)).toBe('rewrite')

    for (const bad of ['ignore', '', 3, null]) {
      const res = await api('/api/settings/content', {
        method: 'PUT',
        as: user,
        json: { ...valid(), unverifiedClaims: bad },
      })
      // Only the three names: '' and null are refused too (only a field left out keeps the saved choice).
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 })
      expect((res.body.errors as Record<string, string[]>).unverifiedClaims).toEqual([UNVERIFIED_MESSAGE])
    }
    expect(await stored(user.id)).toBeNull()

    const mark = await api('/api/settings/content', {
      method: 'PUT',
      as: user,
      json: { ...valid(), unverifiedClaims: 'mark' },
    })
    expect(mark.status).toBe(200)
    expect(mark.body.settings).toMatchObject({ unverifiedClaims: 'mark' })
    expect(await stored(user.id)).toMatchObject({ unverifiedClaims: 'mark' })
    expect(await unverifiedPolicyOf(user.id)).toBe('mark')

    // A client that does not send the field keeps the saved choice.
    const without = await api('/api/settings/content', {
      method: 'PUT',
      as: user,
      json: { ...valid(), tone: 'direct' },
    })
    expect(without.status).toBe(200)
    expect(await stored(user.id)).toMatchObject({ unverifiedClaims: 'mark', tone: 'direct' })

    const remove = await api('/api/settings/content', {
      method: 'PUT',
      as: user,
      json: { ...valid(), unverifiedClaims: 'remove' },
    })
    expect(remove.status).toBe(200)
    expect(await unverifiedPolicyOf(user.id)).toBe('remove')
  })

  it('form: the three choices, rewrite checked by default; a bad value is shown at its field; a choice is saved', async () => {
    const user = await createTestUser()
    const page = await api('/settings/content', { as: user, auth: 'cookie' })
    expect(page.text).toContain('When a figure cannot be verified')
    expect(page.text).toContain('Rewrite the sentence without the figure')
    expect(page.text).toContain('Remove the sentence')
    expect(page.text).toContain('Keep it, marked unverified (Auto Pilot will not publish the post)')
    expect(page.text).toMatch(/<input[^>]*value="rewrite"[^>]*checked=""|<input[^>]*checked=""[^>]*value="rewrite"/)

    const bad = await api('/settings/content', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({ ...valid(), unverifiedClaims: 'ignore' }),
    })
    expect(bad.status).toBe(400)
    expect(bad.text).toContain(UNVERIFIED_MESSAGE)
    expect(await stored(user.id)).toBeNull()

    const ok = await api('/settings/content', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({ ...valid(), unverifiedClaims: 'remove' }),
    })
    expect(ok.status).toBe(302)
    expect(await stored(user.id)).toMatchObject({ unverifiedClaims: 'remove' })
    const after = await api('/settings/content', { as: user, auth: 'cookie' })
    expect(after.text).toMatch(/<input[^>]*value="remove"[^>]*checked=""|<input[^>]*checked=""[^>]*value="remove"/)
  })
})

describe('content settings page (forms without JavaScript)', () => {
  it('shows field messages and keeps the input on bad input; saves and redirects with a toast', async () => {
    const user = await createTestUser()
    const page = await api('/settings/content', { as: user, auth: 'cookie' })
    expect(page.status).toBe(200)
    expect(page.text).toContain('Content settings')
    expect(page.text).toContain('value="email marketing software"')

    const bad = await api('/settings/content', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({ ...valid(), ctaText: 'Book a demo', ctaUrl: 'ftp://nope', tone: 'friendly' }),
    })
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('Please enter a valid URL, such as https://example.com/signup.')
    expect(bad.text).toContain('value="Book a demo"')
    expect(bad.text).toContain('value="ftp://nope"')
    expect(await stored(user.id)).toBeNull()

    const ok = await api('/settings/content', {
      method: 'POST',
      as: user,
      auth: 'cookie',
      body: new URLSearchParams({ ...valid(), tone: 'playful' }),
    })
    expect(ok.status).toBe(302)
    expect(ok.headers.get('location')).toBe('/settings/content')
    expect(await stored(user.id)).toMatchObject({ tone: 'playful', ctaUrl: `${siteUrl()}/signup` })

    const profile = await api('/profile', { as: user, auth: 'cookie' })
    expect(profile.text).toContain('href="/settings/content"')
  })
})
