import { Form } from '@remix-run/react'
import { useId } from 'react'

/**
 * 'Create Post' on a keyword row: a plain form post to /blogposts (works without JavaScript). The request key makes a
 * double click, or a second tab, create the post only once.
 */
export function CreatePostButton({ keywordId }: { keywordId: string }) {
  const requestKey = useId().replace(/[^a-zA-Z0-9]/g, '') + keywordId
  return (
    <Form method="post" action="/blogposts">
      <input type="hidden" name="intent" value="create-post" />
      <input type="hidden" name="keywordId" value={keywordId} />
      <input type="hidden" name="requestKey" value={requestKey} />
      <button type="submit" className="btn-primary px-3 py-1.5 text-xs">Create Post</button>
    </Form>
  )
}
