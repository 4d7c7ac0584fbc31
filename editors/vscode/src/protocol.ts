// The hotlines/* requests and notifications, typed once, mirroring protocol/README.md.
// Only the fields the extension reads are declared; everything here is plain data and the
// RequestType/NotificationType handles used with the language client.
import { NotificationType, RequestType, RequestType0 } from 'vscode-languageclient';
import type { Location, Range } from 'vscode-languageclient';

export interface Weight {
  count: number;
  value: number;
}

export interface EventSummary {
  name: string;
  unit: string;
  count: number;
  value: number;
  states: string[]; // thread states its samples were taken in
}

export interface ProfileSummary {
  profileId: string;
  path: string;
  format: 'jfr' | 'pprof' | 'collapsed' | 'otlp' | 'async-profiler-html' | 'async-profiler-text';
  producer?: string;
  events: EventSummary[];
  defaultEvent: string;
  threads: number;
  samples: number;
  durationNs?: number;
  warnings?: { message: string; line?: number; offset?: number }[];
}

export interface LoadProfileParams {
  path: string;
}

export interface HotMethodsParams {
  profileId?: string;
  event?: string;
  limit?: number;
  query?: string;
}
export interface HotMethod {
  name: string;
  self: Weight;
  total: Weight;
}
export interface HotMethodsResult {
  profileId: string;
  event: string;
  unit: string;
  total: Weight;
  methods: HotMethod[];
}

export interface LineAnnotation {
  line: number; // 1-based, in the document as the editor has it now
  profiledLine: number;
  stale: boolean;
  self: Weight;
  total: Weight;
  heat: number; // self relative to the view's hottest line, 0..1
  baseline?: { self: Weight; total: Weight };
  delta?: number; // percentage points, now - baseline
}
export interface FileAnnotations {
  uri: string;
  profileId: string;
  event: string;
  unit: string;
  file: string;
  total: Weight;
  lines: LineAnnotation[];
  functions: { name: string; line: number; self: Weight; total: Weight }[];
}
export interface FileAnnotationsParams {
  textDocument: { uri: string };
  profileId?: string;
  event?: string;
}

export interface ViewParams {
  profileId?: string;
  event?: string;
  measure?: 'count' | 'value';
  threads?: string[];
  states?: string[];
  from?: string;
  to?: string;
}

export interface EventInfo {
  name: string;
  unit: string;
  total: Weight;
  samples: number;
  hasTime: boolean;
  default: boolean;
  sources: string[];
  rule: string; // how the reader chose the samples when their type does not say, else ''
  states: StateInfo[]; // thread states of the samples, most first; [] when none recorded
}
export interface StateInfo {
  name: string; // RUNNABLE, SLEEPING, ...; '' for samples without a state
  samples: number;
  total: Weight;
}
export interface ThreadInfo {
  name: string;
  weight: Weight | number;
  threads?: number;
}

export interface TreeNode {
  id: number;
  parent: number | null;
  depth: number;
  name: string;
  kind: string;
  frame: number;
  file?: string;
  line?: number;
  uri?: string;
  self: Weight;
  total: Weight;
}
export interface TreeResult {
  event: string;
  unit: string;
  total: Weight;
  nodes: TreeNode[];
}
export interface TreeParams extends ViewParams {
  function?: string;
  uri?: string;
  file?: string;
  line?: number;
  lines?: boolean;
  maxDepth?: number;
  minPercent?: number;
  maxNodes?: number;
}

export interface ResolveFrameParams extends ViewParams {
  nodeId?: number;
  frame?: number;
  function?: string;
}
export interface ResolvedFrame {
  function: string;
  status: 'resolved' | 'external' | 'unresolved';
  rule: string;
  recorded?: string;
  line?: number;
  location?: Location;
  reason?: string;
}

export interface Remap {
  from: string;
  to: string;
}
export interface ResolutionReport {
  event: string;
  resolved: { weight: number; pct: number; functions: number };
  unresolved: { weight: number; pct: number; functions: number };
  external: { weight: number; pct: number; functions: number };
  failingPrefixes: { prefix: string; pct: number; suggestedRemap: Remap | null; wouldResolve: number }[];
  warning: string;
}

export interface RunParams {
  recipe: string;
  cwd?: string;
  [key: string]: unknown;
}
export interface RunResult {
  runId: string;
  profilePath: string;
  commands: string[][];
}
export interface RunOutput {
  runId: string;
  stream: 'stdout' | 'stderr' | 'hotlines';
  text: string;
}
export interface RunFinished {
  runId: string;
  exitCode: number | null;
  signal: string | null;
  profilePath: string;
  profileId: string | null;
  durationMs: number;
  error?: { kind: string; message: string; output: string };
}

export interface TestInFile {
  kind: 'junit' | 'goTest' | 'goBenchmark' | 'nodeTest' | 'javaMain' | 'junitClass' | 'gtest';
  name: string;
  range: Range;
  selectionRange: Range;
  run: RunParams;
}
export interface TestsInFile {
  uri: string;
  language: string;
  tests: TestInFile[];
  mains?: TestInFile[]; // Java classes with a main method (kind javaMain, a java-main run)
  classes?: TestInFile[]; // Java classes declaring tests (kind junitClass, the whole class)
}

export interface JvmInfo {
  pid: number;
  mainClass: string;
  args: string;
}

export const loadProfile = new RequestType<LoadProfileParams, ProfileSummary, void>('hotlines/loadProfile');
export const profiles = new RequestType0<{ profiles: ProfileSummary[] }, void>('hotlines/profiles');
export const unloadProfile = new RequestType<{ profileId: string }, null, void>('hotlines/unloadProfile');
export const hotMethods = new RequestType<HotMethodsParams, HotMethodsResult, void>('hotlines/hotMethods');
export const fileAnnotations = new RequestType<FileAnnotationsParams, FileAnnotations, void>('hotlines/fileAnnotations');
export const events = new RequestType<{ profileId?: string }, { profileId: string; events: EventInfo[] }, void>('hotlines/events');
export const threads = new RequestType<ViewParams & { grouped?: boolean }, { total: number; threads: ThreadInfo[]; states: StateInfo[] }, void>('hotlines/threads');
export const flameGraph = new RequestType<TreeParams, TreeResult, void>('hotlines/flameGraph');
export const callers = new RequestType<TreeParams, TreeResult, void>('hotlines/callers');
export const resolveFrame = new RequestType<ResolveFrameParams, ResolvedFrame, void>('hotlines/resolveFrame');
export const resolutionReport = new RequestType<{ profileId?: string; event?: string }, ResolutionReport, void>('hotlines/resolutionReport');
export const run = new RequestType<RunParams, RunResult, void>('hotlines/run');
export const cancelRun = new RequestType<{ runId: string }, { cancelled: boolean }, void>('hotlines/cancelRun');
export const listJvms = new RequestType<{ jcmd?: string }, { jvms: JvmInfo[] }, void>('hotlines/listJvms');
export const flameDocument = new RequestType<ViewParams & { baseline?: string }, unknown, void>('hotlines/flameDocument');
export const testsInFile = new RequestType<{ textDocument: { uri: string } }, TestsInFile, void>('hotlines/testsInFile');

export const profileLoaded = new NotificationType<ProfileSummary>('hotlines/profileLoaded');
export const profileChanged = new NotificationType<ProfileSummary>('hotlines/profileChanged');
export const annotationsChanged = new NotificationType<Record<string, never>>('hotlines/annotationsChanged');
export const runOutput = new NotificationType<RunOutput>('hotlines/runOutput');
export const runFinished = new NotificationType<RunFinished>('hotlines/runFinished');

// workspace/executeCommand names the server implements.
export const Commands = {
  selectEvent: 'hotlines.selectEvent',
  selectThreads: 'hotlines.selectThreads',
  selectStates: 'hotlines.selectStates',
  setWindow: 'hotlines.setWindow',
  setBaseline: 'hotlines.setBaseline',
} as const;
