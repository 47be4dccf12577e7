import { Link } from '@remix-run/react'

/** While a client-side navigation waits for its page of posts. */
export function LoadingPosts() {
  return (
    <p role="status" className="py-16 text-center text-slate-600">
      Loading blog posts...
    </p>
  )
}

/** A user without any post yet (no search, no filter). */
export function EmptyLibrary() {
  return (
    <div className="card mx-auto max-w-xl py-12 text-center">
      <h2 className="text-2xl font-semibold text-slate-900">Start Your Content Journey</h2>
      <p className="mt-3 text-slate-600">Create your first SEO-optimized blog post to drive organic traffic</p>
      <Link to="/keywords" className="btn-primary mt-6">
        Explore Keywords
      </Link>
    </div>
  )
}
