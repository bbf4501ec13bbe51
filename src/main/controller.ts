import type { AgentEvent } from '../shared/agent-events';
import { allowanceFor } from '../shared/tool-allowances';
import { DeskpilotError, ValidationError } from '../shared/errors';
import type { AppEvent, AppInfoReply, AppStatus, DoctorReport, DoctorRequest, PermissionState, TargetApp } from '../shared/ipc';
import { pickLanguage, type Language } from '../shared/i18n/i18n';
import type { PublicSettings } from '../shared/settings-derive';
import type { SuggestionKind } from '../shared/suggestions';
import type { RelaunchOffer } from '../shared/host-service';
import type { WorkflowEvent } from '../shared/workflow-ipc';
import { isHttpsUrl } from '../shared/urls';
import type { HostClient } from './host-link/host-client';
import type { Hotkey } from './shell/hotkey';
import type { MainHandlers } from './ipc/ipc-handlers';
import type { SettingsPatchInput, SettingsService } from './settings/settings';
import { captureTarget } from './window/target';
import type { Transcript } from './settings/transcript-store';

/** Whether the target needs a relaunch is a nicety too: the offer waits no longer than the suggestions. */
const RELAUNCH_OFFER_TIMEOUT_MS = 2000;

/** The chat window as the controller drives it. */
export interface WindowControl {
  isVisible(): boolean;
  isFocused(): boolean;
  show(): void;
  hide(): void;
}

export interface ControllerDeps {
  appInfo: AppInfoReply;
  supervisor: Pick<
    HostClient,
    'ask' | 'notify' | 'request' | 'frontmost' | 'settingsChanged' | 'hostState' | 'hostProblem' | 'restart' | 'docsStatus' | 'suggest'
  >;
  settings: SettingsService;
  transcript: Transcript;
  hotkey: Hotkey;
  window: WindowControl;
  /** Sends an AppEvent to the renderer (a no-op while it has no page). */
  push: (event: AppEvent) => void;
  /** Every Deskpilot process (main, renderer, GPU, host): none of them is ever a target. */
  ownPids: () => readonly number[];
  accessibility: () => PermissionState;
  openExternal: (url: string) => Promise<void>;
  /** macOS: System Settings → Privacy & Security → Accessibility. */
  openPermissionSettings: () => Promise<void>;
  setOpenAtLogin: (open: boolean) => void;
  /** The system's folder dialog; undefined when the user cancelled. */
  pickFolder: () => Promise<string | undefined>;
  /** The system's file dialog for an MCP config, read and parsed as JSON; undefined when the user cancelled. */
  pickMcpConfig?: () => Promise<unknown>;
  /** Runs `deskpilot doctor`'s checks for the Diagnose button (in a process of their own). */
  doctor?: (request: DoctorRequest) => Promise<DoctorReport>;
  log: (level: 'info' | 'warn' | 'error', text: string) => void;
  /** The UI's language changed: main's own words (tray, dialogs, notices) follow it. */
  languageChanged?: (language: Language) => void;
  frontmostTimeoutMs?: number;
}

/**
 * Main's state and behaviour behind the IPC channels, the hotkey and the tray: the target app,
 * the status, the transcript, and the host. Electron itself stays outside (index.ts wires it).
 */
export class MainController {
  private readonly deps: ControllerDeps;
  private target: TargetApp | null = null;
  /** The empty chat's suggestions, for the app they were made for. */
  private suggestions: { pid: number; kinds: SuggestionKind[] } | undefined;
  /** Whether the target app hides its content until relaunched with accessibility, for the app it was asked of. */
  private relaunch: { pid: number; offer: RelaunchOffer | null } | undefined;
  private accessibilityState: PermissionState;

  constructor(deps: ControllerDeps) {
    this.deps = deps;
    this.accessibilityState = deps.accessibility();
  }

  status(): AppStatus {
    const configError = this.deps.settings.configProblem();
    return {
      target: this.target,
      hotkey: this.deps.hotkey.status,
      accessibility: this.accessibilityState,
      host: this.deps.supervisor.hostState,
      ...(this.deps.supervisor.hostProblem === undefined ? {} : { hostError: this.deps.supervisor.hostProblem }),
      configured: configError === undefined,
      ...(configError === undefined ? {} : { configError }),
      ...(this.suggestions !== undefined && this.suggestions.pid === this.target?.pid ? { suggestions: this.suggestions.kinds } : {}),
      ...(this.relaunch?.offer != null && this.relaunch.pid === this.target?.pid ? { relaunch: this.relaunch.offer } : {}),
      language: this.deps.settings.language(),
      systemLanguage: pickLanguage(this.deps.settings.systemLanguages()),
    };
  }

  pushStatus(): void {
    this.deps.push({ type: 'status', status: this.status() });
  }

  /** From the host: fold into main's transcript, then hand to the renderer, which folds the same. */
  agentEvent(event: AgentEvent): void {
    this.deps.transcript.applyEvent(event);
    this.deps.push({ type: 'agent', event });
    // An ask waiting for approval out of sight would wait for ever: bring the window up to ask.
    // The target stays as it is; the frontmost app now is the one the agent is working in.
    if (event.type === 'approval_request' && !this.deps.window.isVisible()) {
      this.deps.window.show();
      this.deps.push({ type: 'shown' });
    }
  }

  /** A workflow run's event, for the Workflows view; a risky step waiting out of sight brings the window up, as an ask's does. */
  workflowEvent(event: WorkflowEvent): void {
    this.deps.push({ type: 'workflow', event });
    if (event.type === 'approval' && !this.deps.window.isVisible()) {
      this.deps.window.show();
      this.deps.push({ type: 'shown' });
    }
  }

  notice(level: 'info' | 'error', text: string): void {
    this.deps.transcript.addNotice(level, text);
    this.deps.push({ type: 'notice', level, text });
  }

  /**
   * Registers the hotkey from settings at start-up; a failure becomes the status' error and a
   * notice. The same failure on every launch says nothing new, so it is noticed once.
   */
  applyHotkey(): void {
    const status = this.deps.hotkey.set(this.deps.settings.get('hotkey'));
    if (status.error !== undefined) {
      this.deps.log('warn', status.error);
      const last = this.deps.transcript.lastNotice();
      if (last?.level !== 'error' || last.text !== status.error) this.notice('error', status.error);
    }
    this.pushStatus();
  }

  /**
   * The hotkey: hide when the window is in front, else record the target and show it. The window
   * stays up when the user clicks into another app, so a press from there means "help with
   * this app now", not "hide".
   */
  async toggle(): Promise<void> {
    if (this.deps.window.isVisible() && this.deps.window.isFocused()) this.hide();
    else await this.show();
  }

  /** Reads the frontmost app first: once the window has focus, the frontmost app is Deskpilot. */
  async show(view: 'chat' | 'settings' = 'chat'): Promise<void> {
    if (!this.deps.window.isVisible() || !this.deps.window.isFocused()) {
      this.target = await captureTarget(
        () => this.deps.supervisor.frontmost(this.deps.frontmostTimeoutMs),
        this.deps.ownPids(),
        this.target,
        this.deps.frontmostTimeoutMs,
      );
    }
    this.accessibilityState = this.deps.accessibility();
    this.deps.window.show();
    this.pushStatus();
    this.suggestFor(this.target);
    this.offerRelaunch(this.target);
    this.deps.push(view === 'chat' ? { type: 'shown' } : { type: 'shown', view });
  }

  /** Asks the host what the empty chat may offer for this app, then tells the window; never in the way of showing it. */
  private suggestFor(target: TargetApp | null): void {
    if (target === null || this.suggestions?.pid === target.pid) return;
    this.deps.supervisor.suggest(target.pid).then(
      (kinds) => {
        this.suggestions = { pid: target.pid, kinds };
        this.pushStatus();
      },
      () => undefined,
    );
  }

  /** Asks the host whether the app hides its content for want of accessibility; the window offers the relaunch then. */
  private offerRelaunch(target: TargetApp | null): void {
    if (target === null || this.relaunch?.pid === target.pid) return;
    this.deps.supervisor.request('relaunchOffer', { pid: target.pid }, { timeoutMs: RELAUNCH_OFFER_TIMEOUT_MS }).then(
      (offer) => {
        this.relaunch = { pid: target.pid, offer };
        if (offer !== null) this.pushStatus();
      },
      () => undefined,
    );
  }

  /** The user agreed in the window: the host quits the target app and starts it with accessibility, which is the target from then on. */
  private async relaunchApp(): Promise<void> {
    const target = this.target;
    if (target === null || this.relaunch?.pid !== target.pid || this.relaunch.offer === null) throw new ValidationError('There is no app to relaunch.');
    const { pid } = await this.deps.supervisor.request('relaunchApp', { pid: target.pid });
    this.target = { ...target, pid };
    this.relaunch = undefined;
    this.pushStatus();
  }

  /**
   * A running ask goes on while the window is hidden (the user may hide it to watch the app);
   * Esc in the renderer calls stop() as well as hideWindow().
   */
  hide(): void {
    this.deps.window.hide();
    this.deps.push({ type: 'hidden' });
  }

  handlers(): MainHandlers {
    const { deps } = this;
    return {
      appInfo: () => deps.appInfo,
      status: () => this.status(),
      ask: ({ text }) => {
        if (this.target === null) {
          throw new ValidationError(
            `No app to work on yet: switch to the app you want help with, then press ${deps.hotkey.status.accelerator || 'the hotkey'}.`,
          );
        }
        return deps.supervisor.ask(text, this.target.pid);
      },
      stop: () => deps.supervisor.notify('stop', {}),
      approve: ({ id, decision }) => {
        const card = deps.transcript.openApproval(id);
        deps.transcript.answerApproval(id, decision);
        deps.supervisor.notify('approve', { id, decision });
        // "For this app" or "Always" on a tool of an MCP server lasts until revoked in Settings.
        const external = card?.external;
        const rule = external === undefined ? undefined : allowanceFor(decision, { ...external, ...(card?.app === undefined ? {} : { app: card.app }) });
        if (rule === undefined) return;
        deps.settings.allowTool(rule);
        deps.supervisor.settingsChanged();
      },
      history: () => deps.transcript.list(),
      clearHistory: () => {
        deps.transcript.clear();
        deps.supervisor.notify('clear', {});
      },
      settings: () => deps.settings.publicSettings(),
      updateSettings: (patch) => this.updateSettings(patch),
      openPermissionSettings: () => deps.openPermissionSettings(),
      openExternal: ({ url }) => {
        // The schema checked https already; this is the same rule window.ts applies to links.
        if (!isHttpsUrl(url)) throw new ValidationError('only https links open outside Deskpilot');
        return deps.openExternal(url);
      },
      hideWindow: () => this.hide(),
      restartHost: () => deps.supervisor.restart(),
      docsStatus: () => deps.supervisor.docsStatus(),
      rebuildDocs: () => deps.supervisor.notify('docsRebuild', {}),
      addDocsFolder: async () => {
        const folder = await deps.pickFolder();
        if (folder === undefined) return deps.settings.publicSettings();
        return this.updateSettings({ docsFolders: [...deps.settings.get('docsFolders'), folder] });
      },
      doctor: (request) => {
        if (deps.doctor === undefined) throw new DeskpilotError('UI_NOT_AVAILABLE', 'diagnosis is not available in this build');
        return deps.doctor(request);
      },
      listWorkflows: () => deps.supervisor.request('workflowList', {}),
      // The run acts on the app the window was summoned over, when it is the workflow's app (the host checks).
      runWorkflow: (request) => deps.supervisor.request('workflowRun', { ...request, ...(this.target === null ? {} : { pid: this.target.pid }) }),
      stopWorkflow: () => deps.supervisor.notify('workflowStop', {}),
      draftWorkflow: ({ askId }) => deps.supervisor.request('workflowDraft', { askId }),
      saveWorkflow: (request) => deps.supervisor.request('workflowSave', request),
      relaunchApp: () => this.relaunchApp(),
      importMcpServers: async () => {
        const json = await deps.pickMcpConfig?.();
        if (json === undefined) return deps.settings.publicSettings();
        const updated = deps.settings.importMcpServers(json);
        deps.supervisor.settingsChanged();
        return updated;
      },
    };
  }

  private updateSettings(patch: SettingsPatchInput): PublicSettings {
    const { deps } = this;
    const before = { hotkey: deps.settings.get('hotkey'), openAtLogin: deps.settings.get('openAtLogin'), language: deps.settings.language() };
    let switched = false;
    let updated: PublicSettings;
    try {
      updated = deps.settings.update(patch, () => {
        // After the patch passed every check and before it is stored: a hotkey that does not
        // register is not saved, and the working one stays.
        if (patch.hotkey === undefined || patch.hotkey === before.hotkey) return;
        const result = deps.hotkey.change(patch.hotkey);
        if (result.error !== undefined) throw new ValidationError(result.error);
        switched = true;
      });
    } catch (error) {
      // The store refused the patch after the new hotkey took over: go back to the stored one.
      if (switched) deps.hotkey.change(before.hotkey);
      throw error;
    }
    // First, so what follows (the hotkey's error below) is said in the new language.
    const language = deps.settings.language();
    if (language !== before.language) deps.languageChanged?.(language);
    // The stored one failed at start-up (another app held it then): try it again, quietly.
    if (!deps.hotkey.status.registered) deps.hotkey.set(updated.hotkey);
    if (updated.openAtLogin !== before.openAtLogin) deps.setOpenAtLogin(updated.openAtLogin);
    if (patch.historyLimit !== undefined) deps.transcript.applyLimit();
    deps.supervisor.settingsChanged();
    this.pushStatus();
    return updated;
  }
}
