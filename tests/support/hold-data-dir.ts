// Holds an embedded database folder until killed: `node --import tsx tests/support/hold-data-dir.ts <dir> [strategy]`.
import { lockDataDir, type LockOptions } from '../../db/data-dir-lock.js';

const [dataDir, strategy] = process.argv.slice(2);
await lockDataDir(dataDir!, strategy ? { strategy: strategy as LockOptions['strategy'] } : {});
process.stdout.write('held\n');
setInterval(() => {}, 60_000);
