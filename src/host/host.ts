import { randomBytes } from 'node:crypto';
import type { AgentEvent } from '../shared/agent-events';
import { DeskpilotError } from '../shared/errors';
import type { HistoryMessage, HostSettings } from '../shared/host-protocol';
import { HOST_SERVICE, type HostReply, type HostService } from '../shared/host-service';
import { RpcServer, type Handlers } from '../shared/rpc/server';
import type { TargetApp } from '../shared/ipc';
import { HOST_SETTINGS_DEFAULTS } from '../shared/settings-derive';
import { keepDevices } from '../core/actions/keep-devices';
import { RecordingEngine } from '../core/workflows/recording-engine';
import { workflowsDir } from '../core/workflows/folder';
import { HostWorkflows } from './workflows';
import type { Agent } from '../core/agent';
import type { ApprovalDecision, ApprovalRequest } from '../core/agent/safety';
import type { Environment, ProviderMessage } from '../core/agent/provider';
import { embeddingEndpoint } from '../core/doc-search/endpoint';
import type { DocsService } from '../core/doc-search/service';
import { providerSettings } from '../core/provider-config/provider-settings';
import type { Platform } from '../core/platform/types';
import { buildAgent } from './build-agent';
import type { HostPort } from './port';
import type { SuggestionKind } from '../shared/suggestions';
import { suggestPrompts } from '../core/agent/suggestions';
import { parseMcpServers, type McpServers } from '../shared/mcp-servers';
import { describeMcpNotice } from '../core/mcp-client/server';
import type { McpToolbox } from '../core/mcp-client/toolbox';
import { runtimeOn, type Runtime } from '../core/runtime/runtime';
import type { Tool } from '../core/tools/types';

/** What the host has until main's first settings message (settings-schema.ts's defaults). */
export const DEFAULT_HOST_SETTINGS: HostSettings = HOST_SETTINGS_DEFAULTS;

export interface AutomationHostOptions {
  port: HostPort;
  platform: Platform;
  /** Main's pid and this host's. */
  ownPids: readonly number[];
  env?: () => Environment;
  fetch?: typeof globalThis.fetch;
  /** Prefix for ask and approval ids; random by default (see `session`). */
  session?: string;
  /** Where the documentation index lives (the app's data folder); no documentation search without it. */
  docsDir?: string;
}

/** Progress reaches main at most this often while the folders are indexed. */
const DOCS_PROGRESS_MS = 250;

/**
 * The core behind the chat window: one Agent, driven by typed requests from main, reporting
 * agent events and, after every ask, the conversation so a restarted host can pick it up.
 */
export class AutomationHost {
  private readonly options: AutomationHostOptions;
  /** Main's requests in, replies and events out: HOST_SERVICE, checked on both sides. */
  private readonly rpc: RpcServer<HostService>;
  /** The core as every program assembles it (core/runtime): engine, documentation search, toolbox and agent factory. */
  private readonly runtime: Runtime<RecordingEngine>;
  /** Records each verified action, so a completed ask can be saved as a workflow. */
  private readonly engine: RecordingEngine;
  private readonly workflows: HostWorkflows;
  /**
   * Each Agent numbers its asks from ask-1, so a restarted host would reuse ids the transcript
   * already holds; every id leaving this process carries this host's own prefix.
   */
  private readonly session: string;
  private settings: HostSettings = DEFAULT_HOST_SETTINGS;
  private agent: Agent;
  private readonly running = new Set<Promise<unknown>>();
  private readonly approvals = new Map<string, (decision: ApprovalDecision) => void>();
  /** Documentation search: the user's folders indexed here in the background; an app's help when an ask needs it. */
  private readonly docs: DocsService | undefined;
  private docsIndexing: { done: number; total: number } | null = null;
  private docsAgain = false;
  /** The user asked for the index to be deleted and built again; done before the next run. */
  private docsRebuild = false;
  /** The user's MCP servers, made on the first ask that needs them. */
  private toolbox: McpToolbox | undefined;
  private lastAskId = '';
  private rebuildWhenIdle = false;
  /** Counts Agents built by this host (a policy change builds a new one, which numbers asks afresh too). */
  private agents = 0;

  constructor(options: AutomationHostOptions) {
    this.options = options;
    this.rpc = new RpcServer(HOST_SERVICE, this.handlers(), { send: (message) => options.port.post(message), onProblem: (text) => this.log('error', text) });
    // "Never take my pointer or keyboard": read at each step, so a change in Settings applies at once.
    // Every verified action is kept, so a finished task can be saved as a workflow; without extents, the cheap way.
    const env = options.env ?? (() => process.env);
    this.runtime = runtimeOn(options.platform, {
      env: env(),
      engine: (platform) => new RecordingEngine({ platform, treeBounds: 'none', askBeforeInput: (request) => keepDevices(this.settings, request) }),
      docs:
        options.docsDir === undefined
          ? false
          : {
              dataDir: options.docsDir,
              env: env(),
              settings: () => this.settings.docs,
              endpoint: () => embeddingEndpoint({ ...providerSettings(this.settings), embeddingModel: this.settings.embeddingModel }, env()),
              notify: (text) => this.log('warn', `documentation: ${text}`),
            },
    });
    this.engine = this.runtime.engine;
    this.docs = this.runtime.docs;
    this.session = options.session ?? randomBytes(3).toString('hex');
    this.workflows = new HostWorkflows({
      platform: options.platform,
      engine: this.engine,
      dir: () => workflowsDir(env()),
      post: (event) => this.rpc.emit('workflow', event),
      awaitApproval: (id) => new Promise((resolve) => this.approvals.set(id, resolve)),
      ownPids: options.ownPids,
      busy: () => this.running.size > 0,
    });
    this.agent = this.createAgent();
  }

  /** Listens to main and says ready. */
  start(): void {
    this.options.port.onMessage((raw) => this.rpc.receive(raw));
    this.rpc.emit('ready', { pid: process.pid });
  }

  private createAgent(): Agent {
    this.agents += 1;
    const prefix = `${this.session}.${this.agents}`;
    return buildAgent({
      runtime: this.runtime,
      ownPids: this.options.ownPids,
      settings: () => this.settings,
      env: this.options.env ?? (() => process.env),
      ...(this.options.fetch === undefined ? {} : { fetch: this.options.fetch }),
      onEvent: (event) => this.forward(event, prefix),
      decide: (request) => this.decide(request, prefix),
      // The user's MCP servers' tools, and the saved workflows, so "the weekly form for Grace" replays instead of improvising.
      externalTools: async () => [...(await this.mcpTools()), ...(await this.workflows.tools((text) => this.log('warn', text)))],
    });
  }

  /** The tools of the user's MCP servers; the servers start on the first ask that wants them. */
  private mcpTools(): Promise<Tool[]> {
    if (this.toolbox === undefined) {
      let servers: McpServers = {};
      try {
        servers = parseMcpServers(this.settings.mcpServers);
      } catch (error) {
        this.log('error', `MCP servers ignored: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (Object.keys(servers).length === 0) return Promise.resolve([]);
      this.toolbox = this.runtime.toolbox(servers, {
        onNotice: (notice) => {
          this.rpc.emit('mcp', notice);
          this.log(notice.kind === 'started' ? 'info' : 'warn', describeMcpNotice(notice));
        },
      });
    }
    return this.toolbox.tools();
  }

  private forward(event: AgentEvent, prefix: string): void {
    const askId = `${prefix}-${event.askId}`;
    if (event.type === 'ask') {
      this.lastAskId = askId;
      this.workflows.askStarted(askId, event.text, event.pid);
    }
    if (event.type === 'done' || event.type === 'error') this.workflows.askEnded(askId, event.type === 'done' && !event.stopped);
    const renamed: AgentEvent = event.type === 'approval_request' ? { ...event, askId, id: `${prefix}-${event.id}` } : { ...event, askId };
    this.rpc.emit('agent', renamed);
  }

  /** Waits for main to relay the user's answer; a stop or a clear answers deny. */
  private decide(request: ApprovalRequest, prefix: string): Promise<ApprovalDecision> {
    return new Promise((resolve) => this.approvals.set(`${prefix}-${request.id}`, resolve));
  }

  private log(level: 'info' | 'warn' | 'error', text: string): void {
    this.rpc.emit('log', { level, text });
  }

  /** One handler per method and notification of HOST_SERVICE; each gets its params already checked. */
  private handlers(): Handlers<HostService> {
    return {
      methods: {
        ask: ({ text, pid }) => this.ask(text, pid),
        frontmost: () => this.frontmost(),
        docsStatus: () => this.docsStatus(),
        suggest: ({ pid }) => this.suggest(pid),
        workflowList: () => this.workflows.list(),
        workflowRun: (request) => this.workflows.start(request),
        workflowDraft: ({ askId }) => this.workflows.draft(askId),
        workflowSave: (request) => this.workflows.save(request),
        relaunchOffer: ({ pid }) => this.relaunchOffer(pid),
        relaunchApp: ({ pid }, { signal }) => this.relaunchApp(pid, signal),
      },
      notifications: {
        stop: () => this.stop(),
        approve: ({ id, decision }) => {
          this.approvals.get(id)?.(decision);
          this.approvals.delete(id);
        },
        clear: async () => {
          this.stop();
          await Promise.allSettled([...this.running]);
          this.agent.clear();
          this.postHistory();
        },
        settings: ({ settings }) => this.applySettings(settings),
        docsRebuild: () => {
          this.docsRebuild = true;
          void this.indexDocs();
        },
        restore: ({ messages }) => {
          if (this.running.size > 0) {
            this.log('warn', 'ignored a history restore while an ask is running');
            return;
          }
          this.agent.restore(messages as unknown as ProviderMessage[]);
          this.log('info', `restored a conversation of ${messages.length} messages`);
        },
        workflowStop: () => this.workflows.stop(),
      },
    };
  }

  private applySettings(settings: HostSettings): void {
    // The policy and the `agent` settings are fixed per Agent: a change builds a new one.
    const policyChanged = settings.approvalPolicy !== this.settings.approvalPolicy || JSON.stringify(settings.agent) !== JSON.stringify(this.settings.agent);
    const docsChanged = JSON.stringify([settings.docs, settings.embeddingModel]) !== JSON.stringify([this.settings.docs, this.settings.embeddingModel]);
    const first = this.settings === DEFAULT_HOST_SETTINGS;
    // Other servers: the running ones stop; the new ones start on the next ask.
    if (JSON.stringify(settings.mcpServers) !== JSON.stringify(this.settings.mcpServers)) {
      void this.toolbox?.close();
      this.toolbox = undefined;
    }
    this.settings = settings;
    if (policyChanged) this.rebuild();
    // The folders are indexed when the host starts and whenever they change.
    if (docsChanged || first) void this.indexDocs();
  }

  private docsStatus(): HostReply<'docsStatus'> {
    if (this.docs === undefined) throw new DeskpilotError('UI_NOT_AVAILABLE', 'documentation search is not set up in this host');
    const status = this.docs.status();
    return {
      files: status.files,
      skipped: status.skipped,
      sections: status.chunks,
      sizeBytes: status.sizeBytes,
      updatedAt: status.updatedAt ?? null,
      indexing: this.docsIndexing,
      embedding: status.embedding ?? null,
    };
  }

  private postDocs(): void {
    if (this.docs !== undefined) this.rpc.emit('docs', this.docsStatus());
  }

  /** Indexes the user's folders in the background, one run at a time; a change meanwhile runs it once more. */
  private async indexDocs(): Promise<void> {
    if (this.docs === undefined) return;
    if (this.docsIndexing !== null) {
      this.docsAgain = true;
      return;
    }
    let posted = 0;
    do {
      this.docsAgain = false;
      this.docsIndexing = { done: 0, total: 0 };
      try {
        if (this.docsRebuild) {
          this.docsRebuild = false;
          this.docs.rebuild();
        }
        const report = await this.docs.update({
          onProgress: ({ done, total }) => {
            this.docsIndexing = { done, total };
            if (performance.now() - posted < DOCS_PROGRESS_MS) return;
            posted = performance.now();
            this.postDocs();
          },
        });
        if (report.skipped.length > 0) this.log('info', `documentation: ${report.skipped.length} files skipped (${report.skipped[0]?.reason ?? ''}, …)`);
        for (const { source, taken } of report.cut)
          this.log('info', `documentation: ${source} has more files than one folder may bring; only the first ${taken} are indexed`);
      } catch (error) {
        this.log('error', `documentation indexing failed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.docsIndexing = null;
      }
      this.postDocs();
    } while (this.docsAgain);
  }

  private ask(text: string, pid: number): HostReply<'ask'> {
    const finished = this.agent
      .ask(text, { pid })
      .catch(() => undefined) // the error already went out as an `error` event
      .finally(() => {
        this.running.delete(finished);
        this.postHistory();
        if (this.running.size === 0 && this.rebuildWhenIdle) this.rebuild();
      });
    this.running.add(finished);
    // Agent.ask emits its `ask` event synchronously, so the id is known by now.
    return { askId: this.lastAskId };
  }

  private stop(): void {
    this.agent.stop();
    for (const resolve of this.approvals.values()) resolve('deny');
    this.approvals.clear();
  }

  /** The approval policy is fixed per Agent: carry the conversation over to a new one, between asks. */
  private rebuild(): void {
    if (this.running.size > 0) {
      this.rebuildWhenIdle = true;
      return;
    }
    this.rebuildWhenIdle = false;
    const history = this.agent.history();
    this.agent = this.createAgent();
    this.agent.restore(history);
    this.log('info', `approval policy is now ${this.settings.approvalPolicy}`);
  }

  private postHistory(): void {
    this.rpc.emit('history', { messages: this.agent.history() as unknown as HistoryMessage[] });
  }

  /** Whether the app hides its content until relaunched with accessibility; null for every other app, or a platform that cannot tell. */
  private async relaunchOffer(pid: number): Promise<HostReply<'relaunchOffer'>> {
    if (this.options.ownPids.includes(pid)) return null;
    return (await this.options.platform.apps.relaunchOffer?.(pid)) ?? null;
  }

  /** The user agreed in the window: quit the app gracefully and start it with accessibility. */
  private async relaunchApp(pid: number, signal: AbortSignal): Promise<HostReply<'relaunchApp'>> {
    const relaunch = this.options.platform.apps.relaunchAccessible;
    if (relaunch === undefined || this.options.ownPids.includes(pid)) throw new DeskpilotError('UI_NOT_AVAILABLE', 'this system cannot relaunch apps');
    return { pid: await relaunch(pid, signal) };
  }

  /** What the empty chat may offer to ask about the app; the generic two when it cannot be read. */
  private async suggest(pid: number): Promise<SuggestionKind[]> {
    try {
      return suggestPrompts((await this.engine.observe(pid, { bounds: 'none' })).root);
    } catch {
      return ['whatCanIDo', 'summarize'];
    }
  }

  private async frontmost(): Promise<TargetApp | null> {
    const app = await this.options.platform.apps.frontmost();
    if (app === undefined) return null;
    const window = app.windows.find((candidate) => candidate.focused === true) ?? app.windows[0];
    return { pid: app.pid, app: app.name, title: window?.title ?? '' };
  }
}
