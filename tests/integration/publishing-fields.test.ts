import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createTestUser, type TestUser } from '#tests/setup/app'
import { startReceiver, type Receiver } from '#tests/setup/autopilot-helpers'
import {
  addGhost,
  addWebflow,
  ghostPosts,
  makePost,
  waitForPublication,
  webflowConfig,
  webflowItems,
} from './publishing-helpers'

/**
 * Issue 33, what lands on the customer's site: the post's structured data (JSON-LD) where each CMS keeps it, and
 * the fields a site prints (title, excerpt, slug, tags, categories) as plain text. Ghost and Webflow through their
 * fakes, the webhook through a receiver; the real WordPress in publishing-wordpress.test.ts.
 */

/** A post whose title, description, slug and JSON-LD come from a hostile model or search result. */
async function hostilePost(user: TestUser) {
  const tag = crypto.randomBytes(4).toString('hex')
  const jsonLd = [
    {
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: `Pay on time ${tag} </script><script>alert(1)</script>`,
    },
    {
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: [{ '@type': 'Question', name: 'Why?', acceptedAnswer: { '@type': 'Answer', text: 'A & B <3' } }],
    },
  ]
  const post = await makePost(user, {
    title: `<script>alert(1)</script>Pay <b>on time</b> &amp; often ${tag} <img src=x onerror=alert(2)>`,
    metaDescription: 'Get paid <a href="https://evil.example">now</a> &lt;img src=x onerror=alert(3)&gt;, every time.',
    slug: `Pay <b>On</b> Time: Été ${tag}!`,
    contentHtml: `<h1>Pay on time ${tag}</h1>\n<h2>Why it matters</h2><p>Publishing is the last step.</p>`,
    jsonLd,
  })
  return {
    post,
    jsonLd,
    title: `Pay on time & often ${tag}`,
    excerpt: 'Get paid now , every time.',
    slug: `pay-on-time-ete-${tag}`,
  }
}

async function publish(user: TestUser, postId: string, targets: string[]) {
  return api(`/api/blogpost/${postId}/publish`, { method: 'POST', as: user, json: { action: 'publish', targets } })
}

/** The JSON of each `<script type="application/ld+json">` in some HTML. */
function scriptsIn(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!))
}

describe('structured data and plain fields on Ghost, Webflow and the webhook', () => {
  it('Ghost gets the structured data in codeinjection_head, hostile title, excerpt, slug and tags as plain text', async () => {
    const user = await createTestUser()
    const destination = await addGhost(user, { tags: '<b>Growth</b>, Tom &amp; Jerry, <script>x</script>' })
    const { post, jsonLd, title, excerpt, slug } = await hostilePost(user)
    expect((await publish(user, post.id, [destination])).status).toBe(202)
    expect((await waitForPublication(post.id, destination, ['published', 'failed'])).status).toBe('published')
    const remote = (await ghostPosts()).find((p) => p.slug === slug)!
    expect(remote).toBeDefined()
    expect(remote).toMatchObject({ title, custom_excerpt: excerpt, meta_description: excerpt })
    expect(remote.tags).toEqual([{ name: 'Growth' }, { name: 'Tom & Jerry' }])
    const head = String(remote.codeinjection_head)
    expect(scriptsIn(head)).toEqual(jsonLd)
    // Nothing in a value can end the script early, and the body itself carries no script.
    expect(head.match(/<\/script>/g)).toHaveLength(2)
    expect(String(remote.html)).not.toContain('ld+json')
    expect(String(remote.html)).not.toContain('<h1')
  })

  it('Webflow gets the structured data in the Plain text field the user mapped, checked by Test connection', async () => {
    const user = await createTestUser()
    const cfg = await webflowConfig()
    const attempt = (jsonLdField: string) =>
      api('/api/destinations', {
        method: 'POST',
        as: user,
        json: {
          kind: 'webflow',
          apiToken: cfg.token,
          siteId: cfg.siteId,
          collectionId: cfg.collectionId,
          bodyField: 'post-body',
          jsonLdField,
        },
      })
    const missing = await attempt('schema-markup')
    expect(missing.status).toBe(400)
    expect(missing.body.message).toMatch(/has no field "schema-markup" for the structured data/)
    const rich = await attempt('post-body')
    expect(rich.status).toBe(400)
    expect(rich.body.message).toBe(
      'The structured data field "post-body" is a RichText field; choose a Plain text field.',
    )

    // The settings page's form (a plain form, no JavaScript needed) has the field and says where it goes.
    const page = await api('/settings/publishing?add=webflow', { as: user, auth: 'cookie' })
    expect(page.text).toContain('name="jsonLdField"')
    expect(page.text).toContain('Structured data field (Plain text, optional)')
    expect(page.text).toContain('custom code in &lt;head&gt;')

    const destination = await addWebflow(user, { jsonLdField: 'structured-data' })
    const { post, jsonLd, title, excerpt, slug } = await hostilePost(user)
    await publish(user, post.id, [destination])
    expect((await waitForPublication(post.id, destination, ['published', 'failed'])).status).toBe('published')
    const item = (await webflowItems()).find((i) => i.fieldData.slug === slug)!
    expect(item).toBeDefined()
    expect(item.fieldData).toMatchObject({ name: title, 'post-summary': excerpt })
    const data = String(item.fieldData['structured-data'])
    expect(JSON.parse(data)).toEqual(jsonLd)
    expect(data).not.toMatch(/[<>&]/)
    expect(String(item.fieldData['post-body'])).not.toContain('ld+json')
  })

  describe('the webhook', () => {
    let receiver: Receiver
    beforeAll(async () => {
      receiver = await startReceiver()
    })
    afterAll(async () => receiver.close())

    it('webhook payload: structured data in json_ld, a plain title, slug and description, the body without its H1', async () => {
      const user = await createTestUser()
      await api('/api/autopilot/integrations/webhook', {
        method: 'POST',
        as: user,
        json: { webhookUrl: receiver.url(`/fields/${user.id}`) },
      })
      const { post, jsonLd, title, excerpt, slug } = await hostilePost(user)
      expect((await publish(user, post.id, ['webhook'])).status).toBe(202)
      const [got] = await receiver.waitForRequests(`/fields/${user.id}`, 1)
      const event = JSON.parse(got!.body) as { data: { post: Record<string, unknown> } }
      expect(event.data.post).toMatchObject({ title, slug, meta_description: excerpt, json_ld: jsonLd })
      expect(event.data.post.body_html).toBe('<h2>Why it matters</h2><p>Publishing is the last step.</p>')
      expect(String(event.data.post.content_html)).toMatch(/^<h1>/)
      // A post without JSON-LD still gets the field, as an empty list.
      const plain = await makePost(user)
      await publish(user, plain.id, ['webhook'])
      const both = await receiver.waitForRequests(`/fields/${user.id}`, 2)
      const second = JSON.parse(both.find((r) => r.body.includes(plain.id))!.body) as { data: { post: unknown } }
      expect(second.data.post).toMatchObject({ json_ld: [] })
    })
  })
})
