// ProfileSource: what the view needs from whoever holds the profile. The HTML export answers
// from the embedded document (EmbeddedSource); a host that keeps the profile (the LSP
// server's loopback page, a VS Code webview) answers the same calls over HTTP or postMessage
// (RemoteSource). Every call is async so both fit. README.md documents the interface.
import type { Baseline, EventInfo, LinkScheme, Measure, ThreadInfo } from './document';
import type { FlameTree } from './flame_tree';
import type { Query } from './query';

export interface SourceInfo {
  title: string;
  format: string; // jfr, pprof, collapsed
  producer: string;
  events: EventInfo[];
  threads: ThreadInfo[];
  initial: { event: number; measure: Measure; threads: number[] };
  timeline: { bucket_ns: number; buckets: number } | null;
  link: { scheme: LinkScheme; roots: string[] };
  baseline: { title: string; event: string } | null;
}

// Per-thread weights in the timeline's buckets for one event, measure and thread selection
// (the window is not applied: the timeline shows where it lies).
export interface TimelineData {
  buckets: number;
  bucket_ns: number;
  all: Float64Array; // every selected thread
  threads: { thread: number; total: number; weights: Float64Array }[]; // heaviest first
}

export interface ProfileSource {
  info(): Promise<SourceInfo>;
  flame(query: Query): Promise<FlameTree>;
  timeline(query: Query): Promise<TimelineData | null>; // null: the event has no timestamps
  baseline(): Promise<Baseline | null>;
}
