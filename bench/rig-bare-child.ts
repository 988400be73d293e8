// The bare loop in a process of its own (bundled by the rig bench and run on plain Node, as the
// built CLI is), so its peak RSS is the loop's and Node's, not tsx's. argv: the server's base URL,
// the project folder and the task; the bench's preload reports getrusage at exit.
import { bareLoop } from './rig-bare-loop';

const [baseUrl, folder, task] = process.argv.slice(2);
if (!baseUrl || !folder || !task) throw new Error('usage: rig-bare-child BASE_URL FOLDER TASK');
await bareLoop(baseUrl, folder, task);
// Idle keep-alive sockets must not hold the process open.
setTimeout(() => process.exit(0), 50).unref();
