// Gutter heat from hotlines/fileAnnotations: a 5-level icon per line with self weight, an
// optional whole-line background, after-line text ("38.2% cpu") and overview-ruler marks;
// with a baseline, a red (slower) or green (faster) icon and "+1.2% cpu vs baseline".
// Re-queried on profile load/reload, view change, editor visibility and (debounced) edits;
// results are cached per document version. Toggle: `hotlines.toggleGutter`.
import * as vscode from 'vscode';
import { DIFF_COLORS, type DiffKind, HEAT_COLORS, HEAT_LEVELS, diffKind, hasHeat, heatLevel, lineLabel } from './heat';
import * as P from './protocol';
import type { Session } from './session';

interface Decorations {
  icons: vscode.TextEditorDecorationType[]; // by level
  diff: Record<DiffKind, vscode.TextEditorDecorationType>; // with a baseline
  text: vscode.TextEditorDecorationType;
}

function makeDecorations(context: vscode.ExtensionContext, background: boolean): Decorations {
  const icons: vscode.TextEditorDecorationType[] = [];
  for (let level = 0; level < HEAT_LEVELS; level++) {
    const color = HEAT_COLORS[level];
    icons.push(
      vscode.window.createTextEditorDecorationType({
        gutterIconPath: vscode.Uri.joinPath(context.extensionUri, 'media', `heat-${level}.svg`),
        gutterIconSize: 'contain',
        isWholeLine: true,
        backgroundColor: background ? `${color}${level >= 3 ? '30' : '1a'}` : undefined,
        overviewRulerColor: level >= 2 ? color : undefined,
        overviewRulerLane: vscode.OverviewRulerLane.Right,
      }),
    );
  }
  const diffType = (kind: DiffKind) =>
    vscode.window.createTextEditorDecorationType({
      gutterIconPath: vscode.Uri.joinPath(context.extensionUri, 'media', `diff-${kind}.svg`),
      gutterIconSize: 'contain',
      isWholeLine: true,
      backgroundColor: background ? `${DIFF_COLORS[kind]}26` : undefined,
      overviewRulerColor: DIFF_COLORS[kind],
      overviewRulerLane: vscode.OverviewRulerLane.Right,
    });
  const text = vscode.window.createTextEditorDecorationType({
    after: { margin: '0 0 0 2em', color: new vscode.ThemeColor('editorCodeLens.foreground') },
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedOpen,
  });
  return { icons, diff: { slower: diffType('slower'), faster: diffType('faster') }, text };
}

export function activate(context: vscode.ExtensionContext, session: Session): void {
  const config = () => vscode.workspace.getConfiguration('hotlines.gutter');
  let enabled = config().get<boolean>('enabled', true);
  let deco = makeDecorations(context, config().get<boolean>('background', false));
  const cache = new Map<string, { version: number; result: P.FileAnnotations }>();
  const timers = new Map<string, NodeJS.Timeout>();

  const all = () => [...deco.icons, deco.diff.slower, deco.diff.faster, deco.text];
  const clear = (editor: vscode.TextEditor) => {
    for (const d of all()) editor.setDecorations(d, []);
  };

  const draw = (editor: vscode.TextEditor, ann: P.FileAnnotations) => {
    const byLevel: vscode.DecorationOptions[][] = deco.icons.map(() => []);
    const byDiff: Record<DiffKind, vscode.DecorationOptions[]> = { slower: [], faster: [] };
    const texts: vscode.DecorationOptions[] = [];
    const measure = session.measure();
    const minPercent = vscode.workspace.getConfiguration('hotlines.annotations').get<number>('minPercent', 1);
    const showText = config().get<boolean>('afterLineText', true);
    for (const l of ann.lines) {
      if (l.line < 1 || l.line > editor.document.lineCount) continue;
      const range = new vscode.Range(l.line - 1, 0, l.line - 1, 0);
      const diff = diffKind(l);
      if (l.delta !== undefined) {
        if (diff) byDiff[diff].push({ range });
      } else if (hasHeat(l)) byLevel[heatLevel(l.heat)].push({ range });
      const label = showText ? lineLabel(l, ann.total, ann.event, measure, minPercent) : '';
      if (label) {
        const end = editor.document.lineAt(l.line - 1).range.end;
        texts.push({
          range: new vscode.Range(end, end),
          renderOptions: { after: { contentText: label + (l.stale ? ' (edited)' : '') } },
        });
      }
    }
    deco.icons.forEach((d, i) => editor.setDecorations(d, byLevel[i]));
    editor.setDecorations(deco.diff.slower, byDiff.slower);
    editor.setDecorations(deco.diff.faster, byDiff.faster);
    editor.setDecorations(deco.text, texts);
  };

  const update = async (editor: vscode.TextEditor) => {
    if (editor.document.uri.scheme !== 'file') return;
    if (!enabled || !session.active) return clear(editor);
    const key = editor.document.uri.toString();
    const version = editor.document.version;
    const hit = cache.get(key);
    if (hit && hit.version === version) return draw(editor, hit.result);
    try {
      const result = await session.client.sendRequest(P.fileAnnotations, { textDocument: { uri: key } });
      cache.set(key, { version, result });
      if (editor.document.version === version) draw(editor, result);
    } catch {
      clear(editor); // ContentModified or no profile: the next change redraws
    }
  };

  const updateAll = () => {
    cache.clear();
    for (const e of vscode.window.visibleTextEditors) void update(e);
  };

  context.subscriptions.push(
    session.onDidChange(updateAll),
    vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => void update(e))),
    vscode.workspace.onDidChangeTextDocument((e) => {
      const key = e.document.uri.toString();
      clearTimeout(timers.get(key));
      timers.set(
        key,
        setTimeout(() => {
          for (const ed of vscode.window.visibleTextEditors) if (ed.document === e.document) void update(ed);
        }, 300),
      );
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('hotlines.gutter')) {
        enabled = config().get<boolean>('enabled', true);
        for (const d of all()) d.dispose();
        deco = makeDecorations(context, config().get<boolean>('background', false));
      }
      if (e.affectsConfiguration('hotlines')) setTimeout(updateAll, 200); // after the server saw it
    }),
    vscode.commands.registerCommand('hotlines.toggleGutter', async () => {
      await config().update('enabled', !enabled, vscode.ConfigurationTarget.Global);
    }),
    { dispose: () => all().forEach((d) => d.dispose()) },
  );
  updateAll();
}
