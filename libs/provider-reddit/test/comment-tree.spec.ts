import { CommentTree } from '../src/comment-tree';
import type { CommentData, CommentOrMore } from '../src/reddit-things';

const t1 = (id: string, parent: string, replies: CommentOrMore[] = []): CommentOrMore => ({
  kind: 't1',
  data: {
    id,
    parent_id: parent,
    author: `user_${id}`,
    body: id,
    score: 1,
    created_utc: 1_772_000_000,
    is_submitter: false,
    replies: replies.length ? { kind: 'Listing', data: { after: null, children: replies } } : '',
  } satisfies CommentData,
});
const more = (parent: string, children: string[] = []): CommentOrMore => ({
  kind: 'more',
  data: { id: children[0] ?? '_', parent_id: parent, count: children.length, children },
});

describe('CommentTree and "continue this thread" nodes', () => {
  it('queues each continued parent once and stores a comment once, however often answers repeat it', () => {
    const tree = new CommentTree();
    const listing = [t1('a', 't3_p', [t1('b', 't1_a', [more('t1_b')])]), more('t3_p', ['c'])];
    tree.add(listing);
    tree.add(listing); // e.g. an answer that renders the whole post again
    expect([tree.size, tree.takeBatch(), tree.takeContinuation(), tree.takeContinuation()]).toEqual([
      2,
      ['c'],
      'b',
      null,
    ]);
    // The continued thread: its head again (kept as first seen), with the replies it now carries.
    tree.add([t1('b', 't1_a', [t1('d', 't1_b', [more('t1_d')]), t1('a', 't3_p')])]);
    tree.add([t1('d', 't1_b', [more('t1_d')])]);
    expect(tree.takeContinuation()).toBe('d');
    expect(tree.takeContinuation()).toBeNull();
    expect(tree.flatten(Infinity).map((c) => [c.id, c.parentId])).toEqual([
      ['a', null],
      ['b', 'a'],
      ['d', 'b'],
    ]);
    expect(tree.hasMore).toBe(false);
  });

  it('a continue node under the post itself names no comment to open: counted, not queued', () => {
    const tree = new CommentTree();
    tree.add([
      t1('a', 't3_p'),
      { kind: 'more', data: { id: '_', parent_id: 't3_p', count: 7, children: [] } },
    ]);
    expect([tree.unreachable, tree.takeContinuation(), tree.hasMore]).toEqual([7, null, false]);
  });
});
