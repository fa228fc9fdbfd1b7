import { writeTable } from './results';

/** After the suite: the results table of docs/AGENTS.md from the agents' result files. */
export default function teardown(): void {
  writeTable();
}
