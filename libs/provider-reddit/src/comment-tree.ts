import type { FetchedComment } from '@analyst/contracts';
import { isGone, mapComment } from './reddit-mapping';
import type { CommentData, CommentOrMore, MoreData } from './reddit-things';

interface Node {
  data: CommentData;
  children: Node[];
}

const bareId = (fullname: string): string => fullname.replace(/^t[0-9]_/, '');

/**
 * A post's comment tree as it arrives: the `/comments` answer first, then `morechildren` batches
 * and "continue this thread" answers. Keeps the platform's order; `more` nodes wait in two queues
 * until expanded. A comment is stored once, whichever answer brings it again.
 */
export class CommentTree {
  private readonly roots: Node[] = [];
  private readonly byId = new Map<string, Node>();
  /** Comment ids still to be loaded through morechildren, in the order the tree listed them. */
  private readonly pending: string[] = [];
  private next = 0;
  private readonly queued = new Set<string>();
  /** Parents of "continue this thread" nodes, to be opened with `/comments/{post}?comment=<id>`. */
  private readonly continuations: string[] = [];
  private readonly continued = new Set<string>();
  /** `more` nodes without ids that hang from the post itself: nothing names a comment to open, so counted, not loaded. */
  unreachable = 0;
  /** Comments stored, removed and deleted ones included. */
  size = 0;
  /** Comments stored that are neither removed nor deleted: what `flatten` can return. */
  readable = 0;

  add(things: CommentOrMore[]): void {
    for (const thing of things) {
      if (thing.kind === 'more') this.queue(thing.data);
      else this.insert(thing.data);
    }
  }

  /** True while a `more` node (with ids or a thread to continue) is still unopened. */
  get hasMore(): boolean {
    return this.next < this.pending.length || this.continuations.length > 0;
  }

  private queue(more: MoreData): void {
    if (more.children.length > 0) {
      for (const id of more.children) {
        if (this.byId.has(id) || this.queued.has(id)) continue;
        this.queued.add(id);
        this.pending.push(id);
      }
      return;
    }
    // "Continue this thread" (`id: "_"`, `count: 0`, no children, at the depth limit): morechildren
    // does not return these replies; the parent comment's own listing does.
    if (!more.parent_id.startsWith('t1_')) {
      this.unreachable += more.count;
      return;
    }
    const parent = bareId(more.parent_id);
    if (this.continued.has(parent)) return;
    this.continued.add(parent);
    this.continuations.push(parent);
  }

  private insert(data: CommentData): void {
    const known = this.byId.get(data.id);
    if (known) {
      // Seen again as the head of a continued thread: keep the first copy, take the replies it now carries.
      if (data.replies !== '') this.add(data.replies.data.children);
      return;
    }
    const node: Node = { data, children: [] };
    this.byId.set(data.id, node);
    this.size++;
    if (!isGone(data)) this.readable++;
    const parent = data.parent_id.startsWith('t1_') ? this.byId.get(bareId(data.parent_id)) : undefined;
    (parent ? parent.children : this.roots).push(node);
    if (data.replies !== '') this.add(data.replies.data.children);
  }

  /** Next ids to expand (morechildren takes at most 100), skipping ids loaded since they were queued. */
  takeBatch(size = 100): string[] {
    const batch: string[] = [];
    while (batch.length < size && this.next < this.pending.length) {
      const id = this.pending[this.next++];
      if (!this.byId.has(id)) batch.push(id);
    }
    return batch;
  }

  /** The next comment whose deeper replies are behind "continue this thread", or null. Each is given out once. */
  takeContinuation(): string | null {
    return this.continuations.shift() ?? null;
  }

  /**
   * Parents before their replies, removed and deleted comments left out; a reply to one of those
   * hangs from the nearest comment that is kept (top level when none), so every parentId resolves.
   */
  flatten(limit: number): FetchedComment[] {
    const out: FetchedComment[] = [];
    const walk = (nodes: Node[], parentId: string | null): void => {
      for (const node of nodes) {
        if (out.length >= limit) return;
        const kept = !isGone(node.data);
        if (kept) out.push(mapComment(node.data, parentId));
        walk(node.children, kept ? node.data.id : parentId);
      }
    };
    walk(this.roots, null);
    return out;
  }
}
