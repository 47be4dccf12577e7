import { Link } from '@remix-run/react'
import { POST_MESSAGES } from '#app/lib/posts'

/** A post page's answer for a post that does not exist (or is someone else's), with the way back to the library. */
export function PostNotFound() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 text-center">
      <p className="text-lg text-slate-700">{POST_MESSAGES.notFound}</p>
      <Link to="/blogposts" className="btn-secondary mt-6">
        Back to Blog Posts
      </Link>
    </div>
  )
}
