import { useAppStore } from '../stores/app-store';

/** Last path segment, whichever separator the OS uses. */
function folderName(folder: string): string {
  return folder.split(/[\\/]/).filter(Boolean).at(-1) ?? folder;
}

export function RecentFolderList(): React.JSX.Element | null {
  const { recent, busy, openFolder } = useAppStore();
  if (recent.length === 0) return null;

  return (
    <section className="recent" aria-labelledby="recent-title">
      <h2 id="recent-title">Recent folders</h2>
      <ul>
        {recent.map((folder) => (
          <li key={folder}>
            <button
              type="button"
              className="recent-item"
              disabled={busy}
              onClick={() => void openFolder(folder)}
              title={folder}
            >
              <span className="recent-name">{folderName(folder)}</span>
              <span className="recent-path">{folder}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
