/**
 * The upload request's own picture work (`prepareUpload`: check, turn upright, cap at 2048, re-encode
 * without metadata) on a 12 MP phone JPEG, as CPU a picture, and the bytes it keeps until the job
 * runs. Two sources: a photo-like scene (smooth gradients under fine texture) and blurred noise (the
 * dearest case for the encoder). Each copy runs in a process of its own (its own sharp), the copies
 * alternating, the first swapped every round.
 *
 *   deno run -A bench/upload.ts [--before DIR] [--rounds 3] [--pictures 6] [--record] [--name upload]
 */

import sharp from "sharp";
import process from "node:process";
import { photoLikeScene } from "./photoScene.ts";
import { arg, loadAverageText, pct, reportRowsBeside, type ResultRow } from "./kit.ts";

const HERE = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const BEFORE = arg("before", "").replace(/\/$/, "");
const ROUNDS = Number(arg("rounds", "3"));
const PICTURES = Number(arg("pictures", "6"));
const NAME = arg("name", "upload");
const W = 4032, H = 3024;

/** In a child: `--child DIR FILE`: runs DIR's prepareUpload on FILE; prints CPU ms per picture and bytes. */
async function child(dir: string, file: string) {
  const { prepareUpload } = await import(`file://${dir}/images/pipeline.ts`);
  const bytes = await Deno.readFile(file);
  await prepareUpload(bytes); // loads sharp, warms libvips
  const cpu: number[] = [];
  let kept = 0;
  for (let i = 0; i < PICTURES; i++) {
    const u0 = process.cpuUsage();
    const out = await prepareUpload(bytes);
    const u = process.cpuUsage(u0);
    cpu.push((u.user + u.system) / 1000);
    kept = out.bytes.length;
  }
  console.log(JSON.stringify({ cpu, kept }));
}

async function sources(dir: string): Promise<Record<string, string>> {
  const noise = new Uint8Array(W * H * 3);
  for (let i = 0; i < noise.length; i += 65536) crypto.getRandomValues(noise.subarray(i, i + 65536));
  const blurred = await sharp(noise, { raw: { width: W, height: H, channels: 3 } }).blur(3).jpeg({ quality: 90 })
    .toBuffer();
  const photo = (await photoLikeScene(W, H)).jpeg;
  const out: Record<string, string> = {};
  for (const [name, bytes] of [["photo-like scene", photo], ["blurred noise", blurred]] as const) {
    out[name] = `${dir}/${name.replaceAll(" ", "-")}.jpg`;
    await Deno.writeFile(out[name], bytes);
  }
  return out;
}

async function run(dir: string, file: string): Promise<{ cpu: number[]; kept: number }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      `${dir}/deno.json`,
      import.meta.filename!,
      "--child",
      dir,
      file,
      "--pictures",
      `${PICTURES}`,
    ],
    cwd: dir,
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`the child in ${dir} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
}

if (Deno.args[0] === "--child") {
  await child(Deno.args[1], Deno.args[2]);
} else {
  const tmp = await Deno.makeTempDir();
  const files = await sources(tmp);
  const copies = BEFORE ? [["here", HERE], ["before", BEFORE]] as const : [["here", HERE]] as const;
  const figures = new Map<string, { cpu: number[]; kept: number }>();
  const loads: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...copies].reverse() : copies;
    for (const [source, file] of Object.entries(files)) {
      for (const [copy, dir] of order) {
        loads.push(Deno.loadavg()[0]);
        const r = await run(dir, file);
        const f = figures.get(`${copy} ${source}`) ?? { cpu: [], kept: r.kept };
        f.cpu.push(...r.cpu);
        figures.set(`${copy} ${source}`, f);
      }
    }
    console.log(`round ${round + 1} of ${ROUNDS} (load ${loadAverageText()})`);
  }
  await Deno.remove(tmp, { recursive: true });
  const rowsOf = (copy: string): ResultRow[] =>
    Object.keys(files).flatMap((source) => {
      const f = figures.get(`${copy} ${source}`)!;
      return [
        {
          metric: `upload of a 12 MP phone JPEG (${source}): the request's picture CPU, median`,
          value: +pct(f.cpu, 0.5).toFixed(1),
          unit: "ms",
          goal: 300,
          bench: "upload",
          better: "lower",
        },
        {
          metric: `upload of a 12 MP phone JPEG (${source}): bytes kept until the job`,
          value: f.kept,
          unit: "B",
          bench: "upload",
          better: "lower",
        },
      ];
    });
  console.log("\n| source | copy | CPU a picture, median (p10 to p90) | bytes kept |\n| --- | --- | --- | --- |");
  for (const source of Object.keys(files)) {
    for (const [copy] of copies) {
      const f = figures.get(`${copy} ${source}`)!;
      console.log(
        `| ${source} | ${copy} | ${pct(f.cpu, 0.5).toFixed(0)} ms (${pct(f.cpu, 0.1).toFixed(0)} to ${
          pct(f.cpu, 0.9).toFixed(0)
        }) | ${f.kept.toLocaleString("en-US")} |`,
      );
    }
  }
  const load: [number, number] = [Math.min(...loads), Math.max(...loads)];
  await reportRowsBeside(NAME, rowsOf("here"), BEFORE ? { dir: BEFORE, rows: rowsOf("before") } : null, {
    note: `${ROUNDS} rounds of ${PICTURES} pictures a copy and source, each copy in its own process` +
      (BEFORE ? ", alternating with the checkout before" : ""),
    load,
  });
}
