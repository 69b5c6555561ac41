import type { FetchedComment } from '@analyst/contracts';
import { isGone, mapComment } from './reddit-mapping';
import type { CommentData, CommentOrMore, MoreData } from './reddit-things';

interface Node {
  data: CommentData;
  children: Node[];
}

const bareId = (fullname: string): string => fullname.replace(/^t[0-9]_/, '');

/**
 * A post's comment tree as it arrives: the `/comments` answer first, then `morechildren` batches.
 * Keeps the platform's order; `more` nodes wait in a queue until expanded.
 */
export class CommentTree {
  private readonly roots: Node[] = [];
  private readonly byId = new Map<string, Node>();
  /** Comment ids still to be loaded through morechildren, in the order the tree listed them. */
  readonly pending: string[] = [];
  /** `more` nodes without ids ("continue this thread"): counted, not loaded. */
  unreachable = 0;
  size = 0;

  add(things: CommentOrMore[]): void {
    for (const thing of things) {
      if (thing.kind === 'more') this.queue(thing.data);
      else this.insert(thing.data);
    }
  }

  private queue(more: MoreData): void {
    if (more.children.length === 0) this.unreachable += more.count;
    this.pending.push(...more.children.filter((id) => !this.byId.has(id)));
  }

  private insert(data: CommentData): void {
    if (this.byId.has(data.id)) return;
    const node: Node = { data, children: [] };
    this.byId.set(data.id, node);
    this.size++;
    const parent = data.parent_id.startsWith('t1_') ? this.byId.get(bareId(data.parent_id)) : undefined;
    (parent ? parent.children : this.roots).push(node);
    if (data.replies !== '') this.add(data.replies.data.children);
  }

  /** Next ids to expand (morechildren takes at most 100). */
  takeBatch(size = 100): string[] {
    return this.pending.splice(0, size).filter((id) => !this.byId.has(id));
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
