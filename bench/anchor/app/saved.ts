import type { ReactNode } from 'react'

/**
 * Rankwell's saved pages by path, filled on the server by saved.server.ts when a loader first runs (the anchor's
 * client code never runs in the bench, so in a browser the map stays empty).
 *
 * - `styles` and `stylesheets`: the <style> blocks and stylesheet links of the saved <head> (a public page inlines
 *   its CSS), so that the anchor's document carries the same head as Rankwell's;
 * - `body`: the saved <body> markup as one string (the fair anchor: the framework's floor for the same bytes);
 * - `tree`: the same <body> as React elements, built once (the React anchor: what React itself costs to render
 *   the same elements, without any of the app's components, hooks or data).
 */
export type SavedPage = { title: string; styles: string[]; stylesheets: string[]; body: string; tree: ReactNode }
export const savedPages = new Map<string, SavedPage>()
