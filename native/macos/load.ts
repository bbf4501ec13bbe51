import { ASYNC_DECLARATIONS, DECLARATIONS, EVENT_TAP_CALLBACK, LIBRARY_PATHS, STRUCTS, VARIABLES, type LibraryName } from './declarations';
import type KoffiModule from 'koffi';
import type { AxIpcAsync, EventTapHandler, MacNative } from './types';

type Koffi = typeof KoffiModule;
type KoffiLibrary = ReturnType<Koffi['load']>;

let loaded: Promise<MacNative> | undefined;

/**
 * Opens the macOS libraries and binds every declaration. Called on first use, never at
 * import time, because this module is imported on Linux too. Since Big Sur the files live
 * only in the dyld shared cache: dlopen by path works, a file-exists check would not.
 */
export function loadMacNative(): Promise<MacNative> {
  loaded ??= bind();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

/** Registers the by-value structs; koffi keeps type names global, so only once. */
export function registerStructs(koffi: Koffi): void {
  for (const [name, fields] of Object.entries(STRUCTS)) {
    try {
      koffi.type(name);
    } catch {
      koffi.struct(name, fields);
    }
  }
}

/** The tap's callback prototype; koffi keeps type names global, so a second bind (after a failed load) reuses it. */
function callbackType(koffi: Koffi): ReturnType<Koffi['proto']> {
  try {
    return koffi.type('DeskpilotEventTapCallBack');
  } catch {
    return koffi.proto(EVENT_TAP_CALLBACK);
  }
}

async function bind(): Promise<MacNative> {
  const koffi = (await import('koffi')).default;
  registerStructs(koffi);
  const libraries = new Map<LibraryName, KoffiLibrary>();
  const open = (name: LibraryName): KoffiLibrary => {
    let library = libraries.get(name);
    if (library === undefined) {
      library = koffi.load(LIBRARY_PATHS[name]);
      libraries.set(name, library);
    }
    return library;
  };
  open('appKit');
  const bound: Record<string, unknown> = {};
  const asyncCalls: Record<string, unknown> = {};
  for (const [name, declaration] of Object.entries(DECLARATIONS)) {
    const fn = open(declaration.library).func(declaration.proto);
    bound[name] = fn;
    if ((ASYNC_DECLARATIONS as readonly string[]).includes(name)) {
      asyncCalls[name] = (...args: unknown[]) =>
        new Promise<number>((resolve, reject) => fn.async(...args, (error: unknown, result: number) => (error ? reject(error) : resolve(result))));
    }
  }
  for (const [name, variable] of Object.entries(VARIABLES)) {
    const address: bigint = open(variable.library).symbol(name);
    bound[name] = variable.read === 'address' ? address : (koffi.decode(address, 'void *') as bigint);
  }
  bound['async'] = asyncCalls as AxIpcAsync;
  // koffi 3: a registered callback stays callable after the call that took it returns (doc/callbacks.md, "Registered callbacks").
  const tapCallback = koffi.pointer(callbackType(koffi));
  bound['registerEventTapCallback'] = (handler: EventTapHandler): bigint => koffi.register(handler, tapCallback);
  bound['unregisterCallback'] = (callback: bigint): void => koffi.unregister(callback);
  return bound as unknown as MacNative;
}
