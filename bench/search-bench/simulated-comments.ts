import { SimulatedProvider } from '@analyst/provider-sim';

/** The first `count` comment bodies of the simulator's posts: the distractors and the scale run's comments. */
export function simulatedBodies(count: number): string[] {
  const provider = new SimulatedProvider();
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const link = `https://www.youtube.com/watch?v=S${String(i).padStart(10, '0')}`;
    const fetched = provider.fetchPostSync(link, { fullRead: true });
    if (fetched.status === 'ok') for (const c of fetched.comments) out.push(c.body);
  }
  return out.slice(0, count);
}
