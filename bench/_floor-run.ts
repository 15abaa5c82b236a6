import { LocalProcess } from './local-process.js';
import { measureAdmissionFloor, formatFloorReport } from './admission-floor.js';
const local = await new LocalProcess().start();
try { console.log(formatFloorReport(await measureAdmissionFloor(local, Number(process.env.N ?? 300)))); } finally { await local.stop(); }
