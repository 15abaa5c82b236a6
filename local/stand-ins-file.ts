/** Under `.local/`: written by `npm start` once ready, removed when it stops. */
export const STAND_INS_FILENAME = 'stand-ins.json';

/** Where a running `npm start` keeps its data: what benchmarks and `npm run admin` read. */
export interface StandInsFile {
  dynamodb: string;
  s3: string;
  table: string;
  bucket: string;
  /** the npm start process, so a reader can tell a stale file from a running service */
  pid: number;
}
