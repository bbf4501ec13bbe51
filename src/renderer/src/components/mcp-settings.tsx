import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicSettings } from '../../../shared/settings-derive';
import type { ToolAllowance } from '../../../shared/tool-allowances';
import type { TFunction } from 'i18next';
import { refusalText } from '../failure';

/** An example entry: JSON, the same in every language. */
const EXAMPLE = '{ "mcpServers": { "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "~/Documents"] } } }';

/** "write_file of files, in gedit": what an allowance lets run without asking. */
function allowanceText(rule: ToolAllowance, t: TFunction): string {
  const what =
    rule.tool === undefined
      ? t('settings.allowances.server', { server: rule.server })
      : t('settings.allowances.tool', { tool: rule.tool, server: rule.server });
  const where = rule.app === undefined ? t('settings.allowances.everywhere') : t('settings.allowances.inApp', { app: rule.app });
  return `${what}, ${where}`;
}

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
      <h4 id="allowances-heading">{t('settings.allowances.title')}</h4>
      {settings.toolAllowances.length === 0 ? (
        <p className="field-note">{t('settings.allowances.none')}</p>
      ) : (
        <ul className="allowance-list" aria-labelledby="allowances-heading">
          {settings.toolAllowances.map((rule, index) => {
            const text = allowanceText(rule, t);
            const rest = settings.toolAllowances.filter((_rule, other) => other !== index);
            return (
              <li key={text}>
                <span>{text}</span>
                <button
                  type="button"
                  aria-label={t('settings.allowances.revokeLabel', { rule: text })}
                  onClick={() => void window.deskpilot.updateSettings({ toolAllowances: rest }).then(onSettings, fail)}
                >
                  {t('settings.allowances.revoke')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
