/**
 * A readable diff of a post's Markdown: the live copy against the new version (Auto Pilot's review, 'Update the live
 * copy'). Lines are compared first; a removed line followed by an added one is shown as one changed line with its
 * words marked. Pure: the screens render the parts as text inside <del>/<ins>, never as HTML.
 */

export type DiffPart = { kind: 'same' | 'del' | 'ins'; text: string }
export type DiffRow =
  | { kind: 'same' | 'del' | 'ins'; text: string }
  | { kind: 'change'; parts: DiffPart[] }
  | { kind: 'skip'; lines: number }

/** Lines beyond this many on either side are compared as one block (a post is a few hundred lines). */
const MAX_LINES = 3000
/** Words beyond this many in a changed line are shown as a whole removed and added line. */
const MAX_WORDS = 400

/** The longest common subsequence of two lists, as the operations that turn `a` into `b`. */
function sequenceDiff<T>(a: T[], b: T[]): Array<{ kind: 'same' | 'del' | 'ins'; value: T }> {
  // Common head and tail first: most edits touch a small part of a post.
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const ma = a.slice(head, a.length - tail)
  const mb = b.slice(head, b.length - tail)
  const out: Array<{ kind: 'same' | 'del' | 'ins'; value: T }> = a.slice(0, head).map((value) => ({
    kind: 'same' as const,
    value,
  }))
  const n = ma.length
  const m = mb.length
  if (n * m > MAX_LINES * MAX_LINES || n === 0 || m === 0) {
    for (const value of ma) out.push({ kind: 'del', value })
    for (const value of mb) out.push({ kind: 'ins', value })
  } else {
    // lengths[i][j]: the LCS of ma[i..] and mb[j..].
    const width = m + 1
    const lengths = new Uint32Array((n + 1) * width)
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lengths[i * width + j] =
          ma[i] === mb[j]
            ? lengths[(i + 1) * width + j + 1]! + 1
            : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!)
    let i = 0
    let j = 0
    while (i < n && j < m) {
      if (ma[i] === mb[j]) {
        out.push({ kind: 'same', value: ma[i]! })
        i++
        j++
      } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!)
        out.push({ kind: 'del', value: ma[i++]! })
      else out.push({ kind: 'ins', value: mb[j++]! })
    }
    while (i < n) out.push({ kind: 'del', value: ma[i++]! })
    while (j < m) out.push({ kind: 'ins', value: mb[j++]! })
  }
  for (const value of a.slice(a.length - tail)) out.push({ kind: 'same', value })
  return out
}

/** The words of a line with the spaces that follow them, so that joined parts give back the line. */
const words = (line: string) => line.match(/\s+|[^\s]+/g) ?? []

/** A changed line's words: consecutive parts of one kind are merged. */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = words(before)
  const b = words(after)
  if (a.length > MAX_WORDS || b.length > MAX_WORDS)
    return [
      { kind: 'del', text: before },
      { kind: 'ins', text: after },
    ]
  const parts: DiffPart[] = []
  for (const op of sequenceDiff(a, b)) {
    const last = parts[parts.length - 1]
    if (last && last.kind === op.kind) last.text += op.value
    else parts.push({ kind: op.kind, text: op.value })
  }
  return parts
}

const lines = (text: string) => text.replace(/\r\n?/g, '\n').split('\n')

/**
 * The rows of the diff of `before` (the live copy) and `after` (the new version): unchanged lines, removed, added,
 * changed (word by word: a run of removed lines followed by as many added ones pairs them up), and runs of more
 * than 2·context unchanged lines cut to `skip` rows. Equal texts give no rows.
 */
export function markdownDiff(before: string, after: string, opts: { context?: number } = {}): DiffRow[] {
  if (before === after) return []
  const context = opts.context ?? 2
  const ops = sequenceDiff(lines(before), lines(after))
  const rows: DiffRow[] = []
  for (let k = 0; k < ops.length;) {
    const op = ops[k]!
    if (op.kind === 'same') {
      rows.push({ kind: 'same', text: op.value })
      k++
      continue
    }
    const removed: string[] = []
    const added: string[] = []
    while (k < ops.length && ops[k]!.kind === 'del') removed.push(ops[k++]!.value)
    while (k < ops.length && ops[k]!.kind === 'ins') added.push(ops[k++]!.value)
    const paired = Math.min(removed.length, added.length)
    for (let p = 0; p < paired; p++) rows.push({ kind: 'change', parts: wordDiff(removed[p]!, added[p]!) })
    for (const text of removed.slice(paired)) rows.push({ kind: 'del', text })
    for (const text of added.slice(paired)) rows.push({ kind: 'ins', text })
  }
  return collapse(rows, context)
}

/** Keeps `context` unchanged lines around each change; longer unchanged runs become one `skip` row. */
function collapse(rows: DiffRow[], context: number): DiffRow[] {
  const out: DiffRow[] = []
  let run: DiffRow[] = []
  const flush = (atStart: boolean, atEnd: boolean) => {
    const keepHead = atStart ? 0 : context
    const keepTail = atEnd ? 0 : context
    if (run.length <= keepHead + keepTail + 1) out.push(...run)
    else {
      out.push(...run.slice(0, keepHead))
      out.push({ kind: 'skip', lines: run.length - keepHead - keepTail })
      out.push(...run.slice(run.length - keepTail))
    }
    run = []
  }
  let first = true
  for (const row of rows) {
    if (row.kind === 'same') run.push(row)
    else {
      flush(first, false)
      first = false
      out.push(row)
    }
  }
  flush(first, true)
  return out
}
