import { useState } from 'react';
import { useSessionStore } from '../stores/session-store';

export function TaskComposer(): React.JSX.Element {
  const [task, setTask] = useState('');
  const sending = useSessionStore((s) => s.sending);
  const activeRunId = useSessionStore((s) => s.activeRunId);
  const startRun = useSessionStore((s) => s.startRun);
  const stopRun = useSessionStore((s) => s.stopRun);
  const running = activeRunId !== null;

  async function send(): Promise<void> {
    const text = task.trim();
    if (!text || sending || running) return;
    if (await startRun(text)) setTask('');
  }

  const placeholder = running
    ? 'The agent is working. Write the next task here; it can be sent when this run ends.'
    : 'Describe a task for the agent… (Enter to send, Shift+Enter for a new line)';

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <textarea
        // Empty, the box lets the waiting card's keys through (approval-shortcuts.ts).
        data-composer={task === '' ? 'empty' : 'typing'}
        aria-label="Task"
        placeholder={placeholder}
        value={task}
        rows={3}
        onChange={(event) => setTask(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void send();
          }
          // Escape hands the keys back to a waiting card (the text stays).
          if (event.key === 'Escape') {
            const card = document.querySelector<HTMLElement>('.approval-panel.pending.active');
            if (card) {
              event.preventDefault();
              card.focus({ preventScroll: true });
            }
          }
        }}
      />
      <div className="composer-actions">
        {running ? (
          <button type="button" className="button danger" onClick={() => void stopRun()}>
            Stop
          </button>
        ) : (
          <button type="submit" className="button primary" disabled={sending || task.trim() === ''}>
            {sending ? 'Sending…' : 'Send'}
          </button>
        )}
      </div>
    </form>
  );
}
