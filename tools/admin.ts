import '../local/quiet-warnings.js';
import { runAdmin } from './admin/run.js';

/** `npm run admin -- <command> [options]`: one JSON object on stdout, or one on stderr and exit code 1. */
const outcome = await runAdmin(process.argv.slice(2));
if (outcome.ok) process.stdout.write(`${JSON.stringify(outcome.value, null, 2)}\n`);
else {
  process.stderr.write(`${JSON.stringify({ error: outcome.error })}\n`);
  process.exitCode = 1;
}
