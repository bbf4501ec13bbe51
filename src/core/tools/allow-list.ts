import { PermissionDeniedError } from '../../shared/errors';
import type { AppInfo } from '../../shared/ui-node';

/**
 * The apps a server may touch, by exact app name without regard to case. A fuzzy match
 * would let `--apps notes` reach "Notes Helper", so names must be spelt out.
 */
export class AppAllowList {
  private readonly names: ReadonlySet<string> | undefined;

  constructor(names: readonly string[] | undefined) {
    this.names = names === undefined ? undefined : new Set(names.map((name) => name.trim().toLowerCase()));
  }

  allows(app: Pick<AppInfo, 'name'>): boolean {
    return this.names === undefined || this.names.has(app.name.trim().toLowerCase());
  }

  filter(apps: readonly AppInfo[]): AppInfo[] {
    return apps.filter((app) => this.allows(app));
  }

  get active(): boolean {
    return this.names !== undefined;
  }

  /** The allowed names as given (lower case), or undefined when every app is allowed. */
  get allowed(): string[] | undefined {
    return this.names === undefined ? undefined : [...this.names];
  }

  /**
   * Throws PERMISSION_DENIED unless the pid is one of the allowed apps now running. The refusal
   * is the same for a pid that runs, one that exited and one that never existed, and it does not
   * name the app: otherwise a client could probe which other processes exist.
   */
  checkPid(pid: number, running: readonly AppInfo[]): void {
    if (this.names === undefined || running.some((app) => app.pid === pid && this.allows(app))) return;
    const allowed = [...this.names];
    throw new PermissionDeniedError(
      `pid ${pid} is not a running app in this server's allow-list (--apps ${allowed.join(', ')}); only these apps can be read or acted on. ui_apps lists them`,
      {
        data: { pid, allowed },
      },
    );
  }

  /** Throws PERMISSION_DENIED for an app outside the list, naming the apps that are allowed. */
  check(app: AppInfo): void {
    if (this.allows(app)) return;
    const allowed = [...(this.names ?? [])].join(', ');
    throw new PermissionDeniedError(
      `app '${app.name}' (pid ${app.pid}) is not in this server's allow-list (--apps ${allowed}); only these apps can be read or acted on. ui_apps lists them`,
      {
        data: { pid: app.pid, app: app.name, allowed: [...(this.names ?? [])] },
      },
    );
  }
}
