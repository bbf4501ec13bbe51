import { DEFAULT_MAX_CHARS } from '../mcp/options';

/** What each option means in `--help`: its value's name (none for a flag) and one line. */
export const OPTION_HELP: Readonly<Record<string, { value?: string; text: string }>> = {
  '--pid': { value: 'N', text: 'the app by process id' },
  '--app': {
    value: 'NAME',
    text: 'the app by name, matched loosely against its name, window titles and menu names (--app mouse finds Mousepad, --app writer LibreOffice); a name two apps fit equally is refused',
  },
  '--json': { text: 'print JSON instead of text' },
  '--budget': { value: 'TOKENS', text: 'cut the text to about this many tokens' },
  '--max-nodes': { value: 'N', text: 'cut the text after this many nodes' },
  '--root': { value: 'ID', text: 'start at this node instead of the window' },
  '--bounds': { value: 'none|interactive|all', text: 'read screen rectangles up front and print them (@x,y widthxheight)' },
  '--role': { value: 'ROLE', text: 'a role, as a family (button also finds toggle buttons) or a raw platform role' },
  '--name': { value: 'TEXT', text: 'a name, matched loosely' },
  '--text': { value: 'TEXT', text: 'text in the name, value or description' },
  '--limit': { value: 'N', text: 'at most this many matches (default 20)' },
  '--max-chars': { value: 'N', text: `at most this many characters (read: default 4000; mcp: a result, default ${DEFAULT_MAX_CHARS})` },
  '--offset': { value: 'N', text: 'start this many characters in (a read that was cut says where to read on from)' },
  '--ocr': { text: 'also read the window’s text on this machine and print each line with its id' },
  '--out': { value: 'FILE', text: 'the PNG to write (default screenshot-PID.png), relative to where you ran the command' },
  '--preset': { value: 'NAME', text: 'the provider: openrouter, openai, ollama, lmstudio or gemini' },
  '--lang': { value: 'en|pt-BR', text: 'the answer’s language, whatever the question’s' },
  '--mcp-config': { value: 'FILE', text: 'offer the tools of the MCP servers in this Claude Desktop or Cursor config' },
  '--yes': { text: 'allow risky actions without asking' },
  '--keep-devices': {
    text: 'never take the pointer or keyboard without asking: a step only synthetic input can do is asked about on the terminal (mcp: refused)',
  },
  '--read-only': { text: 'leave out the tools that act' },
  '--apps': { value: 'NAME,NAME', text: 'only these apps can be listed, read or acted on' },
  '--folder': { value: 'DIR', text: 'a folder of your documents (repeatable)' },
  '--top': { value: 'N', text: 'this many results (default 5)' },
  '--save-workflow': { value: 'FILE', text: 'write what the agent did, verified, as a workflow to replay without a model' },
  '--var': { value: 'NAME=VALUE', text: 'a workflow parameter’s value (repeatable)' },
  '--dry-run': { text: 'resolve every step against the app as it is now and print the plan; act on nothing' },
  '--recover': { text: 'hand a halted step to the agent, which proposes a new locator (the file is never changed)' },
  '--save-healed': { value: 'FILE', text: 'with --recover: write the healed workflow to FILE' },
  '--online': { text: 'also send the provider one tiny request' },
  '--debug': { text: 'add the stack to an error line' },
  '--help': { text: 'this help' },
};

/** What each environment variable does, for the commands that read it. */
export const ENV_HELP: Readonly<Record<string, string>> = {
  DISPLAY: 'Linux: the X display the apps are on',
  DBUS_SESSION_BUS_ADDRESS: 'Linux: the session bus, where the accessibility bus is found',
  DESKPILOT_PLATFORM: 'fake: an in-memory fixture desktop, to try every command anywhere',
  INIT_CWD: 'set by npm run: the folder relative paths are resolved against',
  DESKPILOT_PROVIDER: 'the provider preset, over the app’s settings',
  DESKPILOT_API_KEY: 'the API key (OPENAI_API_KEY, OPENROUTER_API_KEY, GEMINI_API_KEY alone pick their service)',
  DESKPILOT_MODEL: 'the model',
  DESKPILOT_BASE_URL: 'an OpenAI-compatible server’s URL',
  DESKPILOT_HEADERS: 'extra request headers: Name: value; Name2: value',
  OLLAMA_HOST: 'where a local Ollama listens (default 127.0.0.1:11434)',
  DESKPILOT_VISION: 'auto, on or off: images from MCP tools for the model',
  LC_ALL: 'the locale (then LC_MESSAGES, LANG; LANGUAGE as a priority list): the answer’s language when the question does not tell',
  DESKPILOT_DOCS_FOLDERS: 'more documentation folders, separated like PATH',
  DESKPILOT_DATA_DIR: 'where the documentation index lives (default $XDG_DATA_HOME/deskpilot)',
  DESKPILOT_WORKFLOWS_DIR: 'the folder of saved workflows (default workflows/ in the data folder)',
  DESKPILOT_EMBEDDING_MODEL: 'the provider’s embedding model, for ranking by meaning',
};

/** Read by every command that talks to the desktop. */
export const DESKTOP_ENV: readonly string[] = ['DISPLAY', 'DBUS_SESSION_BUS_ADDRESS', 'DESKPILOT_PLATFORM'];
/** Read by every command that talks to a model. */
export const PROVIDER_ENV: readonly string[] = [
  'DESKPILOT_PROVIDER',
  'DESKPILOT_API_KEY',
  'DESKPILOT_MODEL',
  'DESKPILOT_BASE_URL',
  'DESKPILOT_HEADERS',
  'OLLAMA_HOST',
];
