// Starts `hotlines serve` over stdio as a LanguageClient. Settings of the `hotlines` section go
// as initializationOptions (and as didChangeConfiguration when they change); clientCommands is
// on because this extension implements `hotlines.showCallers`; annotationsChanged tells the
// extension when to redraw (session.ts). When the gutter draws the
// after-line text, the server's inlay hints are held back so a line does not show it twice.
import * as fs from 'fs';
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { findServer } from './server_path';

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

export function serverSettings(): Record<string, unknown> {
  const c = vscode.workspace.getConfiguration('hotlines');
  const keys = ['profiles', 'event', 'measure', 'threads', 'window', 'hide', 'sourceRoots', 'pathRemaps',
    'annotations.minPercent', 'annotations.format', 'diagnostics.enabled', 'watchProfiles', 'runLenses',
    'asyncProfiler.path'];
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = c.get(k);
    if (v === undefined || v === null) continue;
    if (k === 'asyncProfiler.path' && v === '') continue;
    out[k] = v;
  }
  return out;
}

export function serverPath(extensionPath: string): string | undefined {
  const setting = vscode.workspace.getConfiguration('hotlines').get<string>('serverPath', '');
  return findServer(setting, process.env.PATH ?? '', extensionPath, isExecutable);
}

export function createClient(context: vscode.ExtensionContext, command: string): LanguageClient {
  const serverOptions: ServerOptions = { command, args: ['serve'] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: 'file' }],
    initializationOptions: { ...serverSettings(), clientCommands: true, annotationsChanged: true },
    synchronize: { configurationSection: 'hotlines' },
    outputChannelName: 'hotlines server',
    middleware: {
      provideInlayHints: (document, range, token, next) => {
        const gutter = vscode.workspace.getConfiguration('hotlines.gutter');
        if (gutter.get<boolean>('enabled', true) && gutter.get<boolean>('afterLineText', true)) return [];
        return next(document, range, token);
      },
      // didChangeConfiguration sends the section as the server reads it (flat dotted keys).
      workspace: {
        configuration: (params, token, next) => next(params, token),
      },
    },
  };
  const client = new LanguageClient('hotlines', 'hotlines', serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client;
}
