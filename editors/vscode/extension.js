// Starts `morrowc lsp` for Morrow files; highlighting comes from the
// TextMate grammar (syntaxes/morrow.tmLanguage.json, a copy of
// editors/morrow.tmLanguage.json made by `npm install`) and the server's
// semantic tokens.
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('morrow').get('morrowcPath', 'morrowc');
  client = new LanguageClient(
    'morrowc',
    'Morrow (morrowc lsp)',
    { command, args: ['lsp'], transport: TransportKind.stdio },
    { documentSelector: [{ scheme: 'file', language: 'morrow' }, { scheme: 'untitled', language: 'morrow' }] },
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
