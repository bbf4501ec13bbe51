import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicSettings } from '../../../shared/settings';
import { refusalText } from '../failure';

/** An example entry: JSON, the same in every language. */
const EXAMPLE = '{ "mcpServers": { "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "~/Documents"] } } }';

interface Props {
  settings: PublicSettings;
  onSettings(settings: PublicSettings): void;
}

/**
 * The user's MCP servers as the JSON Claude Desktop and Cursor use, with an import from their
 * config files. Secrets show as `(stored)` and stay so unless retyped; main checks the JSON and
 * names the field that is wrong, shown under the editor.
 */
export function McpSettings({ settings, onSettings }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState(settings.mcpServers);
  const [problem, setProblem] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);

  // A save or an import brings the stored (redacted) config back.
  useEffect(() => setText(settings.mcpServers), [settings.mcpServers]);

  const done = (updated: PublicSettings) => {
    setProblem(undefined);
    setSaved(true);
    onSettings(updated);
  };
  const fail = (reason: unknown) => {
    setSaved(false);
    setProblem(refusalText(reason));
  };

  return (
    <section className="mcp-settings" aria-labelledby="mcp-heading">
      <h3 id="mcp-heading">{t('settings.mcpServers')}</h3>
      <div className="field">
        <label htmlFor="mcp-servers">{t('settings.mcpJson')}</label>
        <textarea
          id="mcp-servers"
          className="code-input"
          rows={8}
          spellCheck={false}
          value={text}
          aria-invalid={problem !== undefined}
          aria-describedby={problem === undefined ? 'mcp-servers-note' : 'mcp-servers-error mcp-servers-note'}
          placeholder={EXAMPLE}
          onChange={(event) => {
            setText(event.target.value);
            setSaved(false);
          }}
        />
        {problem === undefined ? null : (
          <p className="field-error" id="mcp-servers-error" role="alert">
            {problem}
          </p>
        )}
        <p className="field-note" id="mcp-servers-note">
          {t('settings.mcpHint')}
        </p>
      </div>
      <div className="form-buttons">
        <button type="button" onClick={() => void window.deskpilot.updateSettings({ mcpServers: text }).then(done, fail)}>
          {t('settings.mcpSave')}
        </button>
        <button type="button" onClick={() => void window.deskpilot.importMcpServers().then(done, fail)}>
          {t('settings.mcpImport')}
        </button>
      </div>
      <p role="status" className="form-status">
        {saved ? t('settings.mcpSaved') : ''}
      </p>
    </section>
  );
}
