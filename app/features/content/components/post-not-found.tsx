import { Link } from '@remix-run/react'
import { POST_MESSAGES } from '#app/features/content/posts'

/** What a post's pages (read, edit, publish) show for a post that does not exist or is not the user's. */
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
