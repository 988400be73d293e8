// The write both write tools make: the journal's before-image, the verified atomic write, the
// after-image. Each step opens the file through verified-fs, so each can refuse on its own.
import { writeFileVerified } from '../../workspace/verified-fs';
import { ToolError, type ToolContext } from '../tool';
import { verified, type GuardedPath } from './guarded-path';

export async function journaledWrite(
  ctx: ToolContext,
  file: GuardedPath,
  content: string,
): Promise<void> {
  const journal = ctx.services.journal;
  await verified(async () => journal?.recordBefore(file.path, ctx.callId));
  try {
    await writeFileVerified(file.root, file.path, content);
  } catch (error) {
    throw new ToolError(`Could not write ${file.relative}: ${(error as Error).message}`);
  } finally {
    await verified(async () => journal?.recordAfter?.(file.path, ctx.callId));
  }
}
