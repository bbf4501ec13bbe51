/**
 * npm run bench:replay — record a task once, replay it under drift without a model.
 *
 * The task: fill the 8-field sign-up form (resources/fixture-app/replay-form.py: four text fields, a
 * password, a combo box, two check boxes) and press Save. It is recorded once by the demonstration recorder
 * (XInput2 events from xdotool's synthetic clicks and typing), then replayed on fresh instances:
 * the same layout, rows reordered, a decoy ("Save As…" beside Save and a second form with the
 * same labels), a renamed window, a resized window, another parameter set, and a removed row
 * (Email), where the run must halt. Each run is judged by the form's own output (the JSON it
 * prints on Save and on exit): a wrong action is a field holding a value the task did not put
 * there, a decoy pressed, or the decoy form touched. Then a third-party GTK app, galculator:
 * 12 + 30 = recorded by clicking, replayed as recorded and in a resized window, judged by its display.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { UiNode } from '../src/shared/ui-node';
import { listenInput } from '../src/core/platform/linux/x11/input-events';
import { findNodes } from '../src/core/ui/query';
import { formatWorkflow, parseWorkflow } from '../src/core/workflows/load';
import { resolveValues } from '../src/core/workflows/params';
import { DemonstrationRecorder } from '../src/core/workflows/record/demonstration';
import { runWorkflow } from '../src/core/workflows/runner';
import type { Workflow } from '../src/core/workflows/schema';
import { startDesktop, type Desktop, type LaunchedApp } from '../test/linux/desktop';
import { agentRecording } from './replay-agent';
import { meterPhases, type PhaseMeter } from './replay-phases';
import { median } from './stats';

const FORM = fileURLToPath(new URL('../resources/fixture-app/replay-form.py', import.meta.url));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type Values = Record<string, string>;
const FIRST: Values = { name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100', city: 'London', password: 'n0te-G', plan: 'Pro' };
const SECOND: Values = { name: 'Grace Hopper', email: 'grace@navy.mil', phone: '555 0199', city: 'Arlington', password: 'c0b0l!', plan: 'Team' };
/** The text fields, typed; the combo box (Plan) is chosen from its list. */
const LABELS: Record<string, string> = { name: 'Name', email: 'Email', phone: 'Phone', city: 'City', password: 'Password' };

interface Case {
  name: string;
  flags: string[];
  values: Values;
  /** False where the task's target is gone: the run must halt. */
  exists: boolean;
}

const CASES: Case[] = [
  { name: 'same layout', flags: [], values: FIRST, exists: true },
  { name: 'fields reordered', flags: ['--reorder'], values: FIRST, exists: true },
  { name: 'decoy form + Save As…', flags: ['--decoy'], values: FIRST, exists: true },
  { name: 'renamed window', flags: ['--title', 'Sign up — draft 2'], values: FIRST, exists: true },
  { name: 'resized window', flags: ['--size', '900x700'], values: FIRST, exists: true },
  { name: 'another parameter set', flags: [], values: SECOND, exists: true },
  { name: 'Email removed (must halt)', flags: ['--remove', 'Email'], values: FIRST, exists: false },
];

function xdotool(desktop: Desktop, ...args: string[]): void {
  execFileSync('xdotool', args, { env: { ...process.env, ...desktop.session.env } });
}

async function centreOf(desktop: Desktop, pid: number, role: string, name: string): Promise<{ x: number; y: number }> {
  const { root } = await desktop.engine.observe(pid, { bounds: 'interactive', fresh: true });
  const node = findNodes(root, { role, name, limit: 5 }).find((match) => match.node.name === name)?.node as UiNode | undefined;
  if (node?.bounds === undefined) throw new Error(`no ${role} "${name}" with bounds in the form`);
  return { x: Math.round(node.bounds.x + node.bounds.width / 2), y: Math.round(node.bounds.y + node.bounds.height / 2) };
}

/** The user fills the form once, by pointer and keyboard, while the recorder watches. */
async function record(desktop: Desktop): Promise<{ workflow: Workflow; ms: number }> {
  const started = performance.now();
  const app = await desktop.launch('/usr/bin/python3', [FORM]);
  const recorder = new DemonstrationRecorder({ engine: desktop.engine, pid: app.pid });
  await recorder.start();
  const listener = await listenInput(desktop.session.env, (event) => {
    if (event.kind === 'key') void recorder.push(event);
    else if (event.button === 1) void recorder.push({ kind: 'button', x: event.x, y: event.y });
  });
  const click = async (role: string, name: string): Promise<void> => {
    const at = await centreOf(desktop, app.pid, role, name);
    // As `workflow record` does while the user is idle before a click: the click is placed in the tree as it is now (a list that opened late).
    await recorder.refresh();
    xdotool(desktop, 'mousemove', String(at.x), String(at.y), 'click', '1');
    await sleep(250);
    await recorder.drain();
  };
  for (const [key, label] of Object.entries(LABELS)) {
    await click('textfield', label);
    xdotool(desktop, 'type', '--delay', '15', FIRST[key] as string);
    await sleep(150);
  }
  // The combo box: open its list, then click the item, as a person does.
  await click('combobox', 'Plan');
  await click('menuitem', FIRST['plan'] as string);
  await click('checkbox', 'Subscribe');
  await click('checkbox', 'Terms');
  await click('button', 'Save');
  await sleep(300);
  await recorder.drain();
  listener.close();
  const workflow = parseWorkflow(formatWorkflow(await recorder.finish('sign-up', { name: 'replay-form.py' })));
  for (const note of recorder.notes) console.log(`  recorder: ${note}`);
  await stop(desktop, app);
  return { workflow, ms: performance.now() - started };
}

async function stop(desktop: Desktop, app: LaunchedApp): Promise<string[]> {
  const exited = new Promise<void>((resolve) => app.child.once('exit', () => resolve()));
  app.child.kill('SIGTERM');
  await Promise.race([exited, sleep(3_000)]);
  const log = desktop.session.logPath(app.child);
  return log === undefined ? [] : readFileSync(log, 'utf8').split('\n');
}

interface Judged {
  saved: boolean;
  correct: boolean;
  wrong: number;
}

/** The form's own output against what the task meant to put in it. */
function judge(lines: readonly string[], values: Values): Judged {
  const events = lines
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { event: string; fields?: Record<string, unknown>; billing?: Record<string, unknown> });
  const save = events.find((event) => event.event === 'save');
  const exit = events.find((event) => event.event === 'exit');
  let wrong = events.filter((event) => event.event === 'save_as').length;
  const fields = exit?.fields ?? save?.fields ?? {};
  const expected: Record<string, unknown> = { Subscribe: true, Terms: true, Plan: values['plan'] };
  for (const [key, label] of Object.entries(LABELS)) expected[label] = values[key];
  let correct = save !== undefined;
  for (const [label, actual] of Object.entries(fields)) {
    const touched = actual !== '' && actual !== false;
    if (touched && actual !== expected[label]) wrong += 1;
    if (actual !== expected[label]) correct = false;
  }
  for (const actual of Object.values(exit?.billing ?? {})) if (actual !== '' && actual !== false) wrong += 1;
  return { saved: save !== undefined, correct, wrong };
}

function known(workflow: Workflow, values: Values): Values {
  return Object.fromEntries(Object.entries(values).filter(([name]) => workflow.parameters?.[name] !== undefined));
}

/** The calculator's display, as the app shows it. */
async function display(desktop: Desktop, pid: number): Promise<string> {
  const { root } = await desktop.engine.observe(pid, { fresh: true });
  return String(findNodes(root, { role: 'textarea', limit: 1 })[0]?.node.value ?? '').trim();
}

/**
 * The third-party app: galculator, 12 + 30 = recorded by clicking its buttons, replayed as it
 * was recorded and in a window resized with xdotool; judged by what its display shows.
 */
async function calculator(
  desktop: Desktop,
  meter: PhaseMeter,
): Promise<{ name: string; ok: boolean; halted: boolean; wrong: number; times: number[]; overhead: number[]; halt: string }[]> {
  const keys = ['1', '2', '+', '3', '0', '='];
  const app = await desktop.launch('galculator');
  const recorder = new DemonstrationRecorder({ engine: desktop.engine, pid: app.pid });
  await recorder.start();
  const listener = await listenInput(desktop.session.env, (event) => {
    if (event.kind === 'button' && event.button === 1) void recorder.push({ kind: 'button', x: event.x, y: event.y });
  });
  for (const key of keys) {
    const at = await centreOf(desktop, app.pid, 'togglebutton', key);
    xdotool(desktop, 'mousemove', String(at.x), String(at.y), 'click', '1');
    await sleep(250);
    await recorder.drain();
    // As `workflow record` does while the user is idle: the next click is placed in the tree as it is now (a list that opened late).
    await recorder.refresh();
  }
  listener.close();
  const workflow = parseWorkflow(formatWorkflow(await recorder.finish('sum', { name: 'galculator' })));
  const recorded = await display(desktop, app.pid);
  await stop(desktop, app);
  console.log(`galculator: recorded ${workflow.steps.length} clicks, display ${JSON.stringify(recorded)}`);
  const results = [];
  for (const drift of ['same layout', 'resized window']) {
    const fresh = await desktop.launch('galculator');
    if (drift === 'resized window') {
      xdotool(desktop, 'search', '--sync', '--onlyvisible', '--pid', String(fresh.pid), '.', 'windowsize', '%@', '520', '520');
      await sleep(500);
    }
    const before = meter.steps.length;
    meter.begin();
    const report = await runWorkflow(workflow, {
      engine: desktop.engine,
      platform: desktop.platform,
      pid: fresh.pid,
      values: {},
      waitMs: 2_000,
      onStep: meter.onStep,
    });
    const shown = await display(desktop, fresh.pid);
    await stop(desktop, fresh);
    const halted = report.status === 'halted';
    const wrong = !halted && shown !== '42' ? 1 : 0;
    results.push({
      name: `galculator ${drift}`,
      ok: report.status === 'completed' && shown === '42',
      halted,
      wrong,
      times: report.steps.filter((step) => step.status === 'ok' && step.ms !== undefined).map((step) => step.ms as number),
      overhead: meter.steps.slice(before).map((step) => step.overheadMs),
      halt: report.halt === undefined ? `display ${JSON.stringify(shown)}` : `step ${report.halt.step} ${report.halt.code}: ${report.halt.message}`,
    });
  }
  return results;
}

async function main(): Promise<void> {
  console.log(
    `load average at the start: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} on ${availableParallelism()} cores`,
  );
  const desktop = await startDesktop({ openbox: true });
  try {
    const recording = await record(desktop);
    console.log(
      `recorded ${recording.workflow.steps.length} steps (${recording.workflow.steps.map((step) => `${step.action}${'target' in step && step.target !== undefined ? ` ${step.target.name}` : ''}`).join(', ')}) in ${Math.round(recording.ms)} ms; parameters: ${Object.keys(recording.workflow.parameters ?? {}).join(', ')}`,
    );
    const stepMs: number[] = [];
    // Where each replayed step's time goes: the app settling (the engine's settle) and replay's overhead (replay-phases.ts).
    const meter = meterPhases(desktop.engine);
    let runs = 0;
    let success = 0;
    let halts = 0;
    let wrongActions = 0;
    console.log(`${'case'.padEnd(40)}${'result'.padEnd(10)}${'halts'.padEnd(7)}${'wrong'.padEnd(7)}${'ms/step'.padEnd(9)}${'overhead'.padEnd(10)}tokens  halt`);
    const source = async (label: string, workflow: Workflow): Promise<void> => {
      for (const drift of CASES) {
        const app = await desktop.launch('/usr/bin/python3', [FORM, ...drift.flags]);
        const before = meter.steps.length;
        meter.begin();
        const report = await runWorkflow(workflow, {
          engine: desktop.engine,
          platform: desktop.platform,
          pid: app.pid,
          // Only the values the workflow has parameters for: a value it lacks (a choice it did not record) is the judge's to count.
          values: resolveValues(workflow, known(workflow, drift.values)),
          given: known(workflow, drift.values),
          waitMs: 2_000,
          onStep: meter.onStep,
        });
        const judged = judge(await stop(desktop, app), drift.values);
        const times = report.steps.filter((step) => step.status === 'ok' && step.ms !== undefined).map((step) => step.ms as number);
        stepMs.push(...times);
        runs += 1;
        const halted = report.status === 'halted';
        const ok = drift.exists ? report.status === 'completed' && judged.correct : halted && !judged.saved;
        if (ok) success += 1;
        if (halted) halts += 1;
        wrongActions += judged.wrong;
        const halt = report.halt === undefined ? '' : `step ${report.halt.step} ${report.halt.code}: ${report.halt.lookedFor ?? ''}`;
        console.log(
          `${`${label}: ${drift.name}`.padEnd(40)}${(ok ? 'success' : 'FAIL').padEnd(10)}${String(halted ? 1 : 0).padEnd(7)}${String(judged.wrong).padEnd(7)}${String(Math.round(median(times))).padEnd(9)}${String(Math.round(median(meter.steps.slice(before).map((step) => step.overheadMs)))).padEnd(10)}0       ${halt}`,
        );
      }
    };
    await source('recorded', recording.workflow);
    const agentApp = await desktop.launch('/usr/bin/python3', [FORM]);
    const agent = await agentRecording(desktop, agentApp, FIRST);
    const agentJudged = judge(await stop(desktop, agentApp), FIRST);
    console.log(
      `${'agent run (scripted model)'.padEnd(40)}${(agentJudged.correct ? 'success' : 'FAIL').padEnd(10)}${'0'.padEnd(7)}${String(agentJudged.wrong).padEnd(7)}${'-'.padEnd(9)}${'-'.padEnd(10)}${agent.tokens}  (estimated; saved ${agent.workflow.steps.length} steps, parameters: ${Object.keys(agent.workflow.parameters ?? {}).join(', ')})`,
    );
    await source('from agent', agent.workflow);
    for (const result of await calculator(desktop, meter)) {
      runs += 1;
      if (result.ok) success += 1;
      if (result.halted) halts += 1;
      wrongActions += result.wrong;
      stepMs.push(...result.times);
      console.log(
        `${result.name.padEnd(40)}${(result.ok ? 'success' : 'FAIL').padEnd(10)}${String(result.halted ? 1 : 0).padEnd(7)}${String(result.wrong).padEnd(7)}${String(Math.round(median(result.times))).padEnd(9)}${String(Math.round(median(result.overhead))).padEnd(10)}0       ${result.halt}`,
      );
    }
    console.log(meter.summary());
    const overhead = median(meter.steps.map((step) => step.overheadMs));
    const settle = median(meter.steps.map((step) => step.settleMs));
    console.log(
      `load average at the end: ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')} on ${availableParallelism()} cores`,
    );
    console.log(
      `replay: runs=${runs} success=${success} halts=${halts} wrong_actions=${wrongActions} ms_per_step_p50=${Math.round(median(stepMs))} ms_settle_p50=${Math.round(settle)} ms_overhead_p50=${Math.round(overhead)}`,
    );
  } finally {
    await desktop.stop();
  }
}

await main();
