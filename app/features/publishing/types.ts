import type { HttpStats } from './http.server'

/**
 * What every destination receives: the post as its readers will see it. `title`, `slug` and `excerpt` are plain text
 * (`plainField`, `safeSlug`); each client places `jsonLd` the way its CMS keeps it (a Ghost post's
 * `codeinjection_head`, a WordPress Custom HTML block when the user may publish scripts, a mapped Webflow field).
 */
export type RemoteArticle = {
  title: string
  /** `[a-z0-9-]` only. */
  slug: string
  /** Sanitized HTML of the body, without the title's H1 and without JSON-LD. */
  html: string
  /** The meta description, used as the excerpt / summary. */
  excerpt: string
  /** The post's JSON-LD objects (Article, and FAQPage when it has a FAQ); empty when it has none. */
  jsonLd: Array<Record<string, unknown>>
  /** The post's images, featured first then figures in body order (issue 33). Figures appear in `html` as
   * `<img src="/images/<id>.jpg">`: each client swaps that for the URL its media library gives the upload. */
  images: RemoteImage[]
}

/** One image as a destination receives it: the JPEG file (every CMS takes it), its alt text and credit. */
export type RemoteImage = {
  id: string
  role: 'featured' | 'figure'
  /** Plain text. */
  alt: string
  /** The credit line (stock photos: photographer and provider), plain text; '' when none is due. */
  caption: string
  /** `rankwell-<imageId>.jpg`: stable, so a retry after a crash can find an upload it made. */
  filename: string
  mime: string
  width: number
  height: number
  read(): Promise<Buffer>
}

/** An upload to a destination's media library, as recorded in remote_media. */
export type RemoteMediaRef = { remoteId: string; remoteUrl: string }

/**
 * What a client knows of its earlier uploads (table remote_media, per image and destination). A client records each
 * upload right after the media library answers, before the next step, so a retry never uploads the same image twice.
 */
export interface MediaLedger {
  find(imageId: string): Promise<RemoteMediaRef | null>
  record(imageId: string, media: RemoteMediaRef): Promise<void>
}

export type RemoteResult = { remoteId: string; remoteUrl: string | null }

/**
 * A destination's remote API. `publish` creates the post or, when `remoteId` is known, updates it; without an id
 * it first looks the post up by its slug, so a retry after a crash adopts the copy it made instead of making a
 * second one. A remote copy deleted by hand throws PublishError('missing').
 */
export interface DestinationClient {
  /** A harmless authenticated read; resolves to a sentence saying what it connected to. */
  test(): Promise<{ message: string; config?: Record<string, unknown> }>
  publish(article: RemoteArticle, remoteId: string | null): Promise<RemoteResult>
  /**
   * Reverts the remote copy to a draft or deletes it (`mode`, else the destination's setting). Reverting a copy that
   * was deleted by hand (WordPress: gone or in the trash) throws PublishError('missing'), so that the screens say so;
   * deleting a copy that is gone already is fine.
   */
  unpublish(remoteId: string, mode?: 'draft' | 'delete'): Promise<void>
}

export type ClientOptions = { stats?: HttpStats; media?: MediaLedger }
