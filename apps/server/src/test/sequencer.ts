import fs from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A file that starts real server or command processes: each of those takes a minute or two. */
const startsProcesses = (file: string): boolean => /\b(startServer|runCli|runTs)\(/.test(fs.readFileSync(file, 'utf8'));

/**
 * Vitest's order (the last run's slowest first when it knows them, else the largest files first),
 * except that the files starting real processes go first: on a fresh clone, with no durations known,
 * these short files came last and kept one worker busy for two minutes after the others were done.
 */
export default class ProcessesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = sorted.filter((file) => startsProcesses(file.moduleId));
    return [...first, ...sorted.filter((file) => !first.includes(file))];
  }
}
