import { Form } from '@remix-run/react'
import { ALT_MAX, creditLine, type ImageView } from '#app/features/content/images/images'

/** An image as a <picture>: WebP first, the JPEG fallback with its size (no layout shift). */
export function Picture({ image, eager, className }: { image: ImageView; eager?: boolean; className?: string }) {
  return (
    <picture>
      <source srcSet={`/images/${image.id}.webp`} type="image/webp" />
      <img
        src={`/images/${image.id}.jpg`}
        alt={image.alt}
        width={image.width}
        height={image.height}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        className={className ?? 'h-auto w-full rounded-lg'}
      />
    </picture>
  )
}

/** A stock photo's credit, as the library's terms ask (links to the photographer and the photo). */
export function ImageCredit({ image }: { image: ImageView }) {
  if (!image.credit) return null
  const c = image.credit
  const library = c.provider === 'unsplash' ? 'Unsplash' : 'Pexels'
  return (
    <p className="mt-1 text-xs text-slate-500" aria-label={creditLine(c)}>
      Photo by{' '}
      <a href={c.photographerUrl} rel="noopener noreferrer nofollow" className="underline">
        {c.photographer}
      </a>{' '}
      on{' '}
      <a href={c.photoUrl} rel="noopener noreferrer nofollow" className="underline">
        {library}
      </a>
    </p>
  )
}

/** The featured image above a post's body. */
export function FeaturedImage({ images }: { images: ImageView[] }) {
  const featured = images.find((i) => i.role === 'featured')
  if (!featured) return null
  return (
    <figure className="mt-6" data-testid="featured-image">
      <Picture image={featured} eager />
      <ImageCredit image={featured} />
    </figure>
  )
}

/**
 * The editor's images: each with its alt text (editable), 'Replace' (upload a file) and 'Regenerate'. Plain forms
 * posting to /blogpost/:id/images, so everything works without JavaScript.
 */
export function ImagesPanel({ postId, images }: { postId: string; images: ImageView[] }) {
  const action = `/blogpost/${postId}/images`
  const featured = images.find((i) => i.role === 'featured')
  return (
    <section id="images" className="card mt-8 space-y-6" aria-labelledby="images-heading">
      <h2 id="images-heading" className="text-lg font-semibold text-slate-900">
        Images
      </h2>
      {featured ? null : (
        <div className="space-y-2">
          <p className="text-sm text-slate-600">This post has no featured image.</p>
          <Form method="post" action={action}>
            <input type="hidden" name="role" value="featured" />
            <input type="hidden" name="position" value="0" />
            <button type="submit" name="intent" value="regenerate" className="btn-secondary">
              Regenerate
            </button>
          </Form>
        </div>
      )}
      {images.map((image) => {
        const label = image.role === 'featured' ? 'Featured image' : `Figure in section ${image.position + 1}`
        return (
          <article
            key={image.id}
            className="grid gap-4 sm:grid-cols-[16rem_1fr]"
            aria-label={label}
            data-image-id={image.id}
          >
            <div>
              <Picture image={image} />
              <ImageCredit image={image} />
            </div>
            <div className="space-y-3">
              <p className="text-sm font-semibold text-slate-800">{label}</p>
              <Form method="post" action={action} className="space-y-1">
                <input type="hidden" name="imageId" value={image.id} />
                <label className="label" htmlFor={`alt-${image.id}`}>
                  Alt text
                </label>
                <div className="flex gap-2">
                  <input
                    id={`alt-${image.id}`}
                    name="alt"
                    className="input flex-1"
                    defaultValue={image.alt}
                    maxLength={ALT_MAX}
                    required
                  />
                  <button type="submit" name="intent" value="alt" className="btn-secondary">
                    Save alt text
                  </button>
                </div>
              </Form>
              <Form
                method="post"
                action={action}
                encType="multipart/form-data"
                className="flex flex-wrap items-center gap-2"
              >
                <input type="hidden" name="imageId" value={image.id} />
                <label className="sr-only" htmlFor={`file-${image.id}`}>
                  Image file
                </label>
                <input
                  id={`file-${image.id}`}
                  type="file"
                  name="file"
                  accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
                  required
                  className="text-sm"
                />
                <button type="submit" name="intent" value="replace" className="btn-secondary">
                  Replace
                </button>
              </Form>
              <Form method="post" action={action}>
                <input type="hidden" name="role" value={image.role} />
                <input type="hidden" name="position" value={image.position} />
                <button type="submit" name="intent" value="regenerate" className="btn-secondary">
                  Regenerate
                </button>
              </Form>
            </div>
          </article>
        )
      })}
    </section>
  )
}
