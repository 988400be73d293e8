import type { GrantInfo, RuleInfo } from '../../../shared/api';
import { useSettingsStore } from '../stores/settings-store';
import { RuleText } from './rule-text';

function when(at: number | null): string {
  if (at === null) return 'never';
  const date = new Date(at);
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay
    ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleString();
}

export function RuleList({ rules }: { rules: readonly RuleInfo[] }): React.JSX.Element {
  const deleteRule = useSettingsStore((s) => s.deleteRule);
  return (
    <div className="permission-list">
      <h3>Always allowed in this project</h3>
      {rules.length === 0 ? (
        <p className="muted">
          No rules yet. Answer “Always allow in this project” on an approval to add one.
        </p>
      ) : (
        <ul aria-label="Rules">
          {rules.map((rule) => (
            <li key={rule.id}>
              <span className="rule-cell">
                <RuleText text={rule.description} />
                {rule.note && (
                  <span className="rule-note">
                    <RuleText text={rule.note} />
                  </span>
                )}
              </span>
              <span className="list-meta">
                added {when(rule.createdAt)} · last used {when(rule.lastUsedAt)}
              </span>
              <button
                type="button"
                className="button danger-outline small"
                onClick={() => void deleteRule(rule.id)}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function GrantList({ grants }: { grants: readonly GrantInfo[] }): React.JSX.Element {
  const revokeGrant = useSettingsStore((s) => s.revokeGrant);
  return (
    <div className="permission-list">
      <h3>Active grants</h3>
      {grants.length === 0 ? (
        <p className="muted">No active grants for this session.</p>
      ) : (
        <ul aria-label="Grants">
          {grants.map((grant) => (
            <li key={grant.id}>
              <RuleText text={grant.description} />
              <span className="list-meta">
                {grant.kind === 'session' ? 'this session' : `until ${when(grant.expiresAt)}`} ·
                last used {when(grant.lastUsedAt)}
              </span>
              <button
                type="button"
                className="button danger-outline small"
                onClick={() => void revokeGrant(grant.id)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
