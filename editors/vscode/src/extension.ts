/**
 * The Luma extension's client: starts `luma lsp` (the setting `luma.path`, default
 * `luma` on PATH) over stdio for `.luma` files, and restarts it when the setting changes.
 * Everything the editor shows — diagnostics, hover, definitions, formatting — comes from
 * that server, which is the same parser and checker as `luma check`.
 */
import { type ExtensionContext, window, workspace } from "vscode";
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

function serverOptions(): ServerOptions {
  const command = workspace.getConfiguration("luma").get<string>("path") || "luma";
  return { command, args: ["lsp"] };
}

async function start(): Promise<void> {
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file", language: "luma" }, { scheme: "untitled", language: "luma" }],
  };
  client = new LanguageClient("luma", "Luma", serverOptions(), clientOptions);
  try {
    await client.start();
  } catch (e) {
    void window.showErrorMessage(`Luma: cannot start '${serverOptions().command} lsp' (set luma.path): ${(e as Error).message}`);
  }
}

export async function activate(context: ExtensionContext): Promise<void> {
  context.subscriptions.push(
    workspace.onDidChangeConfiguration(async (event) => {
      if (!event.affectsConfiguration("luma.path")) return;
      await client?.stop();
      await start();
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
