// The one way file tools write: through the undo journal when there is one (write-ahead: the
// before-image and the planned content are on disk before the rename), else atomically.
import { writeFileAtomic } from '../../workspace/atomic-write';
import type { ToolContext } from '../tool';

export async function writeThroughJournal(
  ctx: ToolContext,
  path: string,
  content: string,
): Promise<void> {
  const journal = ctx.services.journal;
  if (journal?.write) return journal.write(path, ctx.callId, content);
  await journal?.recordBefore(path, ctx.callId);
  try {
    await writeFileAtomic(path, content);
  } finally {
    await journal?.recordAfter?.(path, ctx.callId);
  }
}
