'use strict';

// tesseract.js's worker thread, started from this file's path (docs/internals/inference-plane.md, "The
// reference plane"): the package's own node worker script picks a wasm build at run time from the
// CPU's features, so x64 here and arm64 on Lambda could run different builds; this one loads the
// single build named by the `corePath` option. It is plain CommonJS because a worker thread starts
// from a file Node loads without a loader, beside the bundled handler on Lambda.
const { readFile } = require('node:fs/promises');
const { parentPort } = require('node:worker_threads');
const { gunzipSync } = require('node:zlib');
const worker = require('tesseract.js/src/worker-script/index.js');

parentPort.on('message', (packet) => {
  worker.dispatchHandlers(packet, (answer) => parentPort.postMessage(answer));
});

worker.setAdapter({
  // the engine's own diagnostics ("Estimating resolution as …", Leptonica warnings) go to the wasm
  // module's print and printErr, which default to the process's stdout and stderr, outside the
  // service's JSON log lines; what a read found is in its result, so they are dropped here
  getCore: async (_lstmOnly, corePath) => {
    const core = require(corePath);
    return (moduleOptions) => core({ ...moduleOptions, print: () => undefined, printErr: () => undefined });
  },
  gunzip: gunzipSync,
  // offline: the language data is read from `langPath` on disk, never downloaded
  fetch: async (url) => {
    throw new Error(`the reference plane does not download ${url}`);
  },
  // tesseract.js reads a local `langPath` through its cache adapter's read; nothing is ever written
  readCache: (file) => readFile(file),
  writeCache: async () => undefined,
  deleteCache: async () => undefined,
  checkCache: async () => false,
});
