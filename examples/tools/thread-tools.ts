// Tool handlers for examples/057_recursive_schema.luma: they take and return comment trees
// (a recursive schema). Loaded with `--tool-module examples/tools/thread-tools.ts`.
// A handler gets the validated input: every `score` already filled with its default, at
// every depth of the tree.

interface Comment {
  author: string;
  text: string;
  score?: number;
  replies: Comment[];
}

const walk = (c: Comment, depth: number, visit: (c: Comment, depth: number) => void): void => {
  visit(c, depth);
  for (const r of c.replies) walk(r, depth + 1, visit);
};

export const lumaTools = {
  thread_stats: (input: { thread: Comment }) => {
    let comments = 0;
    let depth = 0;
    let unscored = 0;
    walk(input.thread, 1, (c, d) => {
      comments++;
      depth = Math.max(depth, d);
      if (c.score === undefined) unscored++; // never: the default was filled in
    });
    return { comments, depth, unscored };
  },

  // Drops every reply (and its subtree) scored below `min_score`; returns a new tree.
  prune_thread: (input: { thread: Comment; min_score: number }): Comment => {
    const prune = (c: Comment): Comment => ({
      ...c,
      replies: c.replies.filter((r) => (r.score ?? 0) >= input.min_score).map(prune),
    });
    return prune(input.thread);
  },
};
