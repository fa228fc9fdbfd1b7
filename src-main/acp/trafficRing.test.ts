import { expect, it } from 'vitest';
import { TrafficRing } from './trafficRing';

it('keeps the newest lines within its count, numbering every line and counting the dropped ones', () => {
  const ring = new TrafficRing(3, 1000, () => 5);
  for (let i = 1; i <= 5; i++) ring.push(i % 2 ? 'in' : 'out', `{"n":${i}}`);
  expect(ring.window().map((entry) => entry.line)).toEqual(['{"n":3}', '{"n":4}', '{"n":5}']);
  expect(ring.window()[0]).toEqual({ seq: 3, t: 5, dir: 'in', line: '{"n":3}' });
  expect(ring.dropped).toBe(2);
  expect(ring.window({ afterSeq: 3 }).map((entry) => entry.seq)).toEqual([4, 5]);
  expect(ring.window({ beforeSeq: 5, limit: 1 }).map((entry) => entry.seq)).toEqual([4]);
});

it('keeps within its size in characters (one huge line pushes out the older ones)', () => {
  const ring = new TrafficRing(100, 50);
  ring.push('in', 'a'.repeat(20));
  ring.push('in', 'b'.repeat(20));
  ring.push('in', 'c'.repeat(40));
  expect(ring.window().map((entry) => entry.line[0])).toEqual(['c']);
});

it('wakes a watcher once after the next line', () => {
  const ring = new TrafficRing(10);
  let woken = 0;
  ring.watch(() => woken++);
  ring.push('in', '{}');
  ring.push('in', '{}');
  expect(woken).toBe(1);
});
