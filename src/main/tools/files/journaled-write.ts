// The write both write tools make. With the undo journal's own write (write-ahead: the
// before-image and the planned content are on disk before the rename), that; with a journal that
// only records, its before-image, the write, its after-image. Either way every step opens the file
// through verified-fs, so each can refuse on its own, and any failure is a ToolError the model reads.
import { UnverifiedPathError, writeFileVerified } from '../../workspace/verified-fs';
import { ToolError, type ToolContext } from '../tool';
import { verified, type GuardedPath } from './guarded-path';

export async function journaledWrite(
  ctx: ToolContext,
  file: GuardedPath,
  content: string,
): Promise<void> {
  const journal = ctx.services.journal;
  if (journal?.write) {
    try {
      await journal.write(file.path, ctx.callId, content);
    } catch (error) {
      if (error instanceof UnverifiedPathError) throw new ToolError(`Refused: ${error.message}.`);
      throw new ToolError(`Could not write ${file.relative}: ${(error as Error).message}`);
    }
    return;
  }
  await verified(async () => journal?.recordBefore(file.path, ctx.callId));
  try {
    await writeFileVerified(file.root, file.path, content);
  } catch (error) {
    throw new ToolError(`Could not write ${file.relative}: ${(error as Error).message}`);
  } finally {
    await verified(async () => journal?.recordAfter?.(file.path, ctx.callId));
  }
}
