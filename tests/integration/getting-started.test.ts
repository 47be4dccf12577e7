import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db, schema } from '#app/platform/db/client.server'
import { gettingStarted, gettingStartedProgress } from '#app/features/autopilot/getting-started.server'
import { waitForSmtpMessage } from '#tests/fakes/client'
import { api, appUrl, createTestUser, type TestUser } from '#tests/setup/app'
import { makePost } from './publishing-helpers'

/**
 * Issue 35, the guided start: the 'Get started' checklist ticks each step from what the user really did (read in
 * Postgres, shown on /keywords and /profile by the running app), 'Hide' and 'Show' it, 'Mark as reviewed' on the
 * post page, and the verification link's `next`, which only ever continues to a page of this site.
 */

const page = async (user: TestUser, path: string) => (await api(path, { as: user, auth: 'cookie' })).text

/** The steps of the checklist as the page shows them: id → done, from the card's markup. */
function stepsOn(html: string) {
  const card = /data-testid="getting-started"[\s\S]*?<\/section>/.exec(html)?.[0]
  if (!card) return null
  return Object.fromEntries(
    [...card.matchAll(/data-step="(\w+)" data-done="(true|false)"/g)].map((m) => [m[1], m[2] === 'true']),
  )
}

const postForm = (user: TestUser, path: string, fields: Record<string, string>, headers: HeadersInit = {}) =>
  api(path, {
    method: 'POST',
    as: user,
    auth: 'cookie',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  })

describe('the Get started checklist', () => {
  it('ticks each step from real data, in order, on /keywords and /profile, and goes away once all are done', async () => {
    const user = await createTestUser({ verified: false })
    const none = {
      verify: false,
      business: false,
      blog: false,
      write: false,
      review: false,
      publish: false,
      autopilot: false,
    }
    const keywords = await page(user, '/keywords')
    expect(stepsOn(keywords)).toEqual(none)
    expect(keywords).toContain('0 of 7 done')
    // Each step names where it is done; the e-mail step offers the link again.
    for (const [label, href] of [
      ['Describe your business and voice', '/settings/content'],
      ['Connect your blog', '/settings/publishing'],
      ['Write your first post', '/keywords'],
      ['Switch Auto Pilot on', '/autopilot'],
    ])
      expect(keywords).toMatch(new RegExp(`<a[^>]*href="${href}"[^>]*>${label}</a>`))
    expect(keywords).toContain('Send the link again')
    expect(stepsOn(await page(user, '/profile'))).toEqual(none)

    const expectDone = async (...ids: Array<keyof typeof none>) => {
      const progress = await gettingStartedProgress(user.id)
      const done = Object.fromEntries(progress!.steps.map((s) => [s.id, s.done]))
      expect(done).toEqual({ ...none, ...Object.fromEntries(ids.map((id) => [id, true])) })
      return progress!
    }

    await db.update(schema.users).set({ emailVerifiedAt: new Date() }).where(eq(schema.users.id, user.id))
    await expectDone('verify')

    // The business step wants the content settings saved (the onboarding's business details alone are not enough).
    const saved = await api('/api/settings/content', {
      method: 'PUT',
      as: user,
      json: {
        productService: 'email marketing software',
        marketSegment: 'Indie SaaS founders',
        website: 'https://example.com',
        valueProposition: 'Newsletters that get read',
        ctaText: '',
        ctaUrl: '',
        tone: 'friendly',
        toneNotes: '',
        avoid: '',
        writingSample: '',
        writingSampleUrl: '',
      },
    })
    expect(saved.status).toBe(200)
    await expectDone('verify', 'business')

    // A webhook URL counts as a blog, as a destination does.
    await db
      .insert(schema.autopilotSettings)
      .values({ userId: user.id, webhookUrl: 'https://hooks.example.com/x' })
      .onConflictDoUpdate({
        target: schema.autopilotSettings.userId,
        set: { webhookUrl: 'https://hooks.example.com/x' },
      })
    await expectDone('verify', 'business', 'blog')

    // A post still being written is not a first post; a finished one is, and the review and publish steps lead to it.
    await makePost(user, { status: 'generating', completedAt: null })
    await expectDone('verify', 'business', 'blog')
    const post = await makePost(user)
    const withPost = await expectDone('verify', 'business', 'blog', 'write')
    expect(withPost.steps.find((s) => s.id === 'review')!.href).toBe(`/blogpost/${post.id}`)
    expect(withPost.steps.find((s) => s.id === 'publish')!.href).toBe(`/blogpost/${post.id}/publish`)

    // 'Mark as reviewed' on the post's page (a plain form), then 'Reviewed ✓' with 'Undo'; Undo clears it.
    const before = await page(user, `/blogpost/${post.id}`)
    expect(before).toContain('Mark as reviewed')
    let marked = await postForm(user, `/blogpost/${post.id}`, { intent: 'reviewed', reviewed: '1' })
    expect(marked.status).toBe(302)
    expect(marked.headers.get('location')).toBe(`/blogpost/${post.id}`)
    const after = await page(user, `/blogpost/${post.id}`)
    expect(after).toContain('Reviewed ✓')
    expect(after).toMatch(/>Undo<\/button>/)
    await expectDone('verify', 'business', 'blog', 'write', 'review')
    await postForm(user, `/blogpost/${post.id}`, { intent: 'reviewed', reviewed: '0' })
    await expectDone('verify', 'business', 'blog', 'write')
    // Someone else's post cannot be marked.
    const other = await createTestUser()
    const refused = await postForm(other, `/blogpost/${post.id}`, { intent: 'reviewed', reviewed: '1' })
    expect(refused.status).toBe(302)
    expect((await db.select().from(schema.blogPosts).where(eq(schema.blogPosts.id, post.id)))[0]!.reviewedAt).toBeNull()
    // An approved review counts as reviewed too.
    await db.update(schema.blogPosts).set({ reviewStatus: 'approved' }).where(eq(schema.blogPosts.id, post.id))
    await expectDone('verify', 'business', 'blog', 'write', 'review')
    marked = await postForm(user, `/blogpost/${post.id}`, { intent: 'reviewed', reviewed: '1' })
    expect(marked.status).toBe(302)

    await db.update(schema.blogPosts).set({ publishedAt: new Date() }).where(eq(schema.blogPosts.id, post.id))
    await expectDone('verify', 'business', 'blog', 'write', 'review', 'publish')
    const sixOfSeven = await page(user, '/keywords')
    expect(sixOfSeven).toContain('6 of 7 done')

    await db.update(schema.autopilotSettings).set({ enabled: true }).where(eq(schema.autopilotSettings.userId, user.id))
    await expectDone('verify', 'business', 'blog', 'write', 'review', 'publish', 'autopilot')
    expect(await gettingStarted(user.id)).toBeNull()
    expect(stepsOn(await page(user, '/keywords'))).toBeNull()
    expect(stepsOn(await page(user, '/profile'))).toBeNull()
  })

  it('a destination counts as a connected blog; nothing is shown before onboarding', async () => {
    const fresh = await createTestUser({ onboarded: false })
    expect(await gettingStarted(fresh.id)).toBeNull()
    expect(stepsOn(await page(fresh, '/profile'))).toBeNull()

    const user = await createTestUser()
    await db.insert(schema.destinations).values({
      userId: user.id,
      kind: 'ghost',
      name: 'Team blog',
      config: { url: 'https://blog.example.com' },
      credentials: 'not-used-here',
    })
    const progress = await gettingStartedProgress(user.id)
    expect(progress!.steps.find((s) => s.id === 'blog')!.done).toBe(true)
  })

  it('Hide and Show go back to a page of this site only', async () => {
    const user = await createTestUser()
    const hide = await postForm(user, '/getting-started', { intent: 'hide', redirectTo: '/keywords?q=crm' })
    expect(hide.status).toBe(303)
    expect(hide.headers.get('location')).toBe('/keywords?q=crm')
    expect(stepsOn(await page(user, '/keywords'))).toBeNull()
    const profile = await page(user, '/profile')
    expect(stepsOn(profile)).toBeNull()
    expect(profile).toContain('Show the checklist')

    const show = await postForm(user, '/getting-started', { intent: 'show', redirectTo: 'https://evil.example/x' })
    expect(show.status).toBe(303)
    expect(show.headers.get('location')).toBe('/keywords')
    expect(stepsOn(await page(user, '/keywords'))).not.toBeNull()
    const protocolRelative = await postForm(user, '/getting-started', { intent: 'hide', redirectTo: '//evil.example' })
    expect(protocolRelative.headers.get('location')).toBe('/keywords')
  })
})

describe('the verification link continues where the user was', () => {
  const verifyLink = (text: string) => {
    const match = /https?:\/\/\S+\/verify-email\?\S+/.exec(text)
    expect(match, text).toBeTruthy()
    return new URL(match![0])
  }

  it("after sign-up it goes on to the onboarding; the mail is calm and says what to do if it wasn't you", async () => {
    const email = `start-${crypto.randomBytes(4).toString('hex')}@example.com`
    const signup = await api('/api/signup', {
      method: 'POST',
      headers: { 'X-Forwarded-For': `10.35.${crypto.randomInt(0, 255)}.${crypto.randomInt(1, 254)}` },
      json: { name: 'Nova', email, password: 'a-long-password' },
    })
    expect(signup.status).toBe(201)
    const mail = await waitForSmtpMessage({ to: email })
    expect(mail.text).toContain("If this wasn't you, ignore this e-mail")
    expect(mail.text).not.toMatch(/taken over/i)
    expect(verifyLink(mail.text).searchParams.get('next')).toBe('/onboarding')
  })

  it("the banner's resend continues to the page it was on; an absolute or protocol-relative next is ignored", async () => {
    const user = await createTestUser({ verified: false })
    const seen = new Set<string>()
    /** The banner's 'Resend the link' from `referer`; the new mail's link. */
    const resendFrom = async (referer: string) => {
      await db.update(schema.users).set({ emailVerifiedAt: null }).where(eq(schema.users.id, user.id))
      const res = await api('/verify-email', {
        method: 'POST',
        as: user,
        auth: 'cookie',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Referer: referer },
        body: new URLSearchParams({ intent: 'resend' }).toString(),
      })
      expect(res.status).toBe(303)
      const mail = await waitForSmtpMessage({
        to: user.email,
        predicate: (m) => ![...seen].some((token) => m.text.includes(token)),
      })
      const link = verifyLink(mail.text)
      seen.add(link.searchParams.get('token')!)
      return { res, link, mail }
    }

    const { res, link } = await resendFrom(`${appUrl()}/calendar?month=2026-11`)
    expect(res.headers.get('location')).toBe('/calendar?month=2026-11')
    expect(link.searchParams.get('next')).toBe('/calendar?month=2026-11')
    const used = await api(`${link.pathname}${link.search}`, { as: user, auth: 'cookie' })
    expect(used.headers.get('location')).toBe('/calendar?month=2026-11')
    expect((await db.select().from(schema.users).where(eq(schema.users.id, user.id)))[0]!.emailVerifiedAt).toBeTruthy()

    // A link's next can be edited by anyone: only same-site paths are followed (else the usual landing page).
    for (const next of ['https://evil.example/x', '//evil.example/x']) {
      const { link: fresh } = await resendFrom(`${appUrl()}/keywords`)
      fresh.searchParams.set('next', next)
      const res = await api(`${fresh.pathname}${fresh.search}`, { as: user, auth: 'cookie' })
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe('/keywords')
      expect(
        (await db.select().from(schema.users).where(eq(schema.users.id, user.id)))[0]!.emailVerifiedAt,
      ).toBeTruthy()
    }
    // A resend from another site's page: the mail's link goes to the usual place, never there.
    const { link: foreign, mail } = await resendFrom('https://evil.example/x')
    expect(foreign.searchParams.get('next')).toBe('/onboarding')
    expect(mail.text).not.toContain('evil.example')
    // Signed out: the sign-in page, which then continues to next.
    const signedOut = await fetch(`${appUrl()}/verify-email?token=x&next=%2Fcalendar`, { redirect: 'manual' })
    expect(signedOut.headers.get('location')).toBe('/signin?redirectTo=%2Fcalendar')
  })
})
