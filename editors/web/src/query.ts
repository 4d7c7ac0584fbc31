// What the view asks a source for: one event and measure, a thread selection and a window of
// timeline buckets. Plain data, passed to hosts as JSON.
import type { Measure } from './document';

export interface Query {
  event: number;
  measure: Measure;
  threads: number[] | null; // null: every thread
  window: [number, number] | null; // [first bucket, end bucket), null: the whole profile
}

export function sameQuery(a: Query, b: Query): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
