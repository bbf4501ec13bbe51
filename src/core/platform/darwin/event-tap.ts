import type { MacNative, Pointer } from '../../../../native/macos';
import { PermissionDeniedError } from '../../../shared/errors';
import { kCFStringEncodingUTF8 } from './cf';

/** CGEventType values the recorder listens to, and the two a tap receives when the system turns it off (CGEventTypes.h). */
export const TapEventType = {
  LeftMouseDown: 1,
  RightMouseDown: 3,
  KeyDown: 10,
  OtherMouseDown: 25,
  DisabledByTimeout: 0xfffffffe,
  DisabledByUserInput: 0xffffffff,
} as const;

const kCGSessionEventTap = 1;
const kCGHeadInsertEventTap = 0;
const kCGEventTapOptionListenOnly = 1;
/** kCFRunLoopRunFinished (no source left in the mode) and kCFRunLoopRunHandledSource (CFRunLoop.h). */
const RUN_FINISHED = 1;
const RUN_HANDLED_SOURCE = 4;
/** Messages handled per pump: a burst of events (key repeat) is drained over a few pumps, never in an unbounded loop. */
const MAX_PER_PUMP = 64;

/**
 * A run-loop mode of our own. CFRunLoopRunInMode runs only the sources added in the mode it is
 * given (Apple's Threading Programming Guide, "Run Loop Modes"), so pumping this mode from JS runs
 * the tap and nothing else: not Chromium's or Node's sources in Electron, which must never run
 * re-entrantly inside a JS call (README, "Turning the run loop before each read").
 */
export const RECORD_MODE = 'com.deskpilot.workflow-record';

export const INPUT_MONITORING_HELP =
  'Recording a demonstration needs Input Monitoring. Open System Settings → Privacy & Security → Input Monitoring and turn it on for Deskpilot ' +
  '(or for the terminal it was started from), then run the command again. If it is already on, turn it off and on again: a rebuilt app loses the grant.';

export function inputMonitoringDenied(): PermissionDeniedError {
  return new PermissionDeniedError(INPUT_MONITORING_HELP, { data: { permission: 'input-monitoring' } });
}

/** What the tap hands on: the event's type and the event, valid only during the call. */
export type TapHandler = (type: number, event: Pointer) => void;

/**
 * A listen-only CGEventTap on the session, pumped from JS. The tap is a mach port; its run-loop
 * source is added to the JS thread's run loop in RECORD_MODE, and `pump()` runs that mode for
 * zero seconds until no message is left (each run handles one message), bounded. The callback is
 * a koffi registered callback, called synchronously inside CFRunLoopRunInMode on the JS thread,
 * so the event can be read right there; the system releases it after the callback returns.
 *
 * Sources read: Apple's CGEvent.tapCreate (NULL when the process may not tap the events asked
 * for), CGEventTapCallBack and CGEventTapEnable; re-enabling after kCGEventTapDisabledByTimeout
 * as objective-see/sniffMK PR #1 and Hammerspoon's eventtap do; zero-timeout CFRunLoopRunInMode
 * polling as factor/factor's core-foundation/run-loop and IPython's pt_inputhooks/osx.py drive a
 * CF run loop from another event loop.
 */
export class EventTap {
  private closed = false;

  private constructor(
    private readonly native: MacNative,
    private readonly mode: Pointer,
    private readonly callback: Pointer,
    private readonly tap: Pointer,
    private readonly source: Pointer,
    private readonly runLoop: Pointer,
  ) {}

  /**
   * Checks Input Monitoring first (CGPreflightListenEventAccess never prompts). Without it, asks
   * once (CGRequestListenEventAccess shows the system prompt and lists Deskpilot in the pane)
   * and throws PERMISSION_DENIED with the fix: the grant takes effect on the next run.
   */
  static open(native: MacNative, mask: bigint, handler: TapHandler, onError: (error: Error) => void): EventTap {
    if (!native.CGPreflightListenEventAccess()) {
      native.CGRequestListenEventAccess();
      throw inputMonitoringDenied();
    }
    let opened: EventTap | undefined;
    const callback = native.registerEventTapCallback((_proxy, type, event) => {
      try {
        if (type === TapEventType.DisabledByTimeout || type === TapEventType.DisabledByUserInput) opened?.reenable();
        else if (event !== null) handler(type, event);
      } catch (error) {
        // An exception would reach the tap as NULL; a listen-only tap ignores the return, but the error must not be lost.
        onError(error instanceof Error ? error : new Error(String(error)));
      }
      return event;
    });
    const mode = native.CFStringCreateWithCString(null, RECORD_MODE, kCFStringEncodingUTF8);
    if (mode === null) {
      native.unregisterCallback(callback);
      throw new Error('CFStringCreateWithCString returned NULL');
    }
    let tap: Pointer | null = null;
    try {
      tap = native.CGEventTapCreate(kCGSessionEventTap, kCGHeadInsertEventTap, kCGEventTapOptionListenOnly, mask, callback, null);
      if (tap === null) throw inputMonitoringDenied();
      const source = native.CFMachPortCreateRunLoopSource(null, tap, 0);
      if (source === null) throw new Error('CFMachPortCreateRunLoopSource returned NULL');
      // A Get: the thread's run loop is not ours to release.
      const runLoop = native.CFRunLoopGetCurrent();
      native.CFRunLoopAddSource(runLoop, source, mode);
      native.CGEventTapEnable(tap, true);
      opened = new EventTap(native, mode, callback, tap, source, runLoop);
      return opened;
    } catch (error) {
      if (tap !== null) {
        native.CFMachPortInvalidate(tap);
        native.CFRelease(tap);
      }
      native.CFRelease(mode);
      native.unregisterCallback(callback);
      throw error;
    }
  }

  /** Delivers what waits in the tap's port; false once the tap is gone (its source left the mode). */
  pump(): boolean {
    if (this.closed) return false;
    for (let handled = 0; handled < MAX_PER_PUMP; handled += 1) {
      const result = this.native.CFRunLoopRunInMode(this.mode, 0, true);
      if (result === RUN_FINISHED) return false;
      if (result !== RUN_HANDLED_SOURCE) return true;
    }
    return true;
  }

  /** Turns the tap off and releases the port, its source, the mode's name and the callback slot; safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const { native } = this;
    native.CGEventTapEnable(this.tap, false);
    native.CFRunLoopRemoveSource(this.runLoop, this.source, this.mode);
    native.CFMachPortInvalidate(this.tap);
    native.CFRelease(this.source);
    native.CFRelease(this.tap);
    native.CFRelease(this.mode);
    native.unregisterCallback(this.callback);
  }

  private reenable(): void {
    if (!this.closed) this.native.CGEventTapEnable(this.tap, true);
  }
}
