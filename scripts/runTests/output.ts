/**
 * Reading what a `deno test` process prints: its summary line, its JUnit report's times, and the
 * lines that say a file started or a test ended (scripts/run_tests.ts follows its processes by them).
 */

/** A test's name, file and seconds, from a process's JUnit report. */
export interface Timed {
  file: string;
  name: string;
  seconds: number;
}

/** The counts of one `deno test` summary line. */
export interface Counts {
  passed: number;
  passedSteps: number;
  failed: number;
  failedSteps: number;
  ignored: number;
}

/** The counts of a `deno test` summary line (`ok | 3 passed (2 steps) | 1 failed | 1 ignored (2s)`), or null. */
export function parseSummary(line: string): Counts | null {
  const m = line.match(/^(ok|FAILED) \| (\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed(?: \((\d+) steps?\))?(.*)$/);
  if (!m) return null;
  return {
    passed: +m[2],
    passedSteps: +(m[3] ?? 0),
    failed: +m[4],
    failedSteps: +(m[5] ?? 0),
    ignored: +(m[6].match(/\| (\d+) ignored/)?.[1] ?? 0),
  };
}

/** The total line, in `deno test`'s form. */
export function summaryLine(c: Counts, ms: number): string {
  const steps = (n: number) => n ? ` (${n} step${n === 1 ? "" : "s"})` : "";
  const s = Math.round(ms / 1000);
  return `${c.failed ? "FAILED" : "ok"} | ${c.passed} passed${steps(c.passedSteps)} | ${c.failed} failed${
    steps(c.failedSteps)
  }${c.ignored ? ` | ${c.ignored} ignored` : ""} (${Math.floor(s / 60)}m${s % 60}s)`;
}

const unescapeXml = (s: string) =>
  s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(
    /&amp;/g,
    "&",
  );

/**
 * The top-level tests of a JUnit report with their times. A step is reported as
 * `<test> > <step>` in the same file: it is left out (its test's time holds it).
 */
export function parseJunit(xml: string): Timed[] {
  const cases = [...xml.matchAll(/<testcase name="([^"]*)" classname="([^"]*)" time="([\d.]+)"/g)].map((m) => ({
    name: unescapeXml(m[1]),
    file: unescapeXml(m[2]),
    seconds: Number(m[3]),
  }));
  const names = new Set(cases.map((c) => `${c.file}\0${c.name}`));
  return cases.filter((c) => {
    for (let i = c.name.indexOf(" > "); i > 0; i = c.name.indexOf(" > ", i + 1)) {
      if (names.has(`${c.file}\0${c.name.slice(0, i)}`)) return false;
    }
    return true;
  });
}

/** The file a `deno test` line says it starts (`running 3 tests from ./a_test.ts`), or null. */
export function fileStarted(line: string): string | null {
  return line.match(/^running \d+ tests? from (\S+)$/)?.[1] ?? null;
}

/** Whether a `deno test` line is a test's (or a step's) end: `name ... ok (2s)`, `FAILED`, `ignored`. */
export function testEnded(line: string): boolean {
  return /\.\.\. (ok|FAILED|ignored)( \(.*\))?$/.test(line);
}

/**
 * The failed tests a process's report names (its FAILURES section: `name => ./file:line:col`), as
 * `file  name`, and a stopped process's own line: the run's last lines repeat them, so the few lines
 * CI keeps of a run still say what failed.
 */
export function failedTests(tail: string): string[] {
  const lines = tail.split("\n");
  const from = lines.findIndex((l) => l === " FAILURES ");
  const named = from < 0 ? [] : lines.slice(from + 1).flatMap((l) => {
    const m = l.match(/^(.+) => (\S+?):\d+:\d+$/);
    return m ? [`${m[2]}  ${m[1]}`] : [];
  });
  return [...named, ...lines.filter((l) => / no test ended in /.test(l))];
}
