import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { computeInsights, type InsightsInput } from './insights-compute.ts';
import { createInsightsRunner, type InsightsRunner } from './insights-runner.ts';

const MIN = 60_000;
const now = Date.parse('2026-11-20T12:00:00Z');

/** A day of a fridge cycling around 4 °C, a mean a minute. */
function input(): InsightsInput {
  const count = 24 * 60;
  const ts = new Float64Array(count);
  const values = new Float64Array(count);
  for (let i = 0; i < count; i += 1) {
    ts[i] = now - (count - i) * MIN;
    values[i] = 4 + 0.5 * Math.sin((2 * Math.PI * i) / 40);
  }
  return {
    key: 'temperature',
    now,
    readings: { ts, values },
    battery: { ts: new Float64Array(0), values: new Float64Array(0) },
    rules: [],
  };
}

/** The nice value of each of this process's threads (Linux: field 19 of /proc/self/task/<tid>/stat). */
function niceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: fields are counted after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[16]);
  });
}

const logger = { warn: () => undefined };

describe('insights runner', { timeout: 60_000 }, () => {
  let runner: InsightsRunner | undefined;
  afterEach(async () => {
    await runner?.close();
    runner = undefined;
  });

  it('computes the same figures in its threads as in the process', async () => {
    runner = createInsightsRunner({ logger });
    const expected = computeInsights(input());
    expect(await runner.compute(input(), 'interactive')).toEqual(expected);
    expect(await runner.compute(input(), 'background')).toEqual(expected);
  });

  it.runIf(process.platform === 'linux')(
    'runs the background pass at the lowest priority, and a person’s request at the normal one',
    async () => {
      runner = createInsightsRunner({ logger });
      const before = niceValues().filter((nice) => nice === 19).length;
      await runner.compute(input(), 'interactive');
      expect(niceValues().filter((nice) => nice === 19).length).toBe(before);
      await runner.compute(input(), 'background');
      expect(niceValues().filter((nice) => nice === 19).length).toBe(before + 1);
    },
  );
});
