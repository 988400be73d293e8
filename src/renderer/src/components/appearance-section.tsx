// Settings → Appearance: the theme (as the OS says, or always light or dark).
import { useId } from 'react';
import { useThemeStore, type ThemeChoice } from '../stores/theme-store';

const OPTIONS: readonly { readonly value: ThemeChoice; readonly label: string }[] = [
  { value: 'system', label: 'As the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function AppearanceSection(): React.JSX.Element {
  const { choice, choose } = useThemeStore();
  const name = useId();
  return (
    <section className="settings-card" aria-labelledby={`${name}-title`}>
      <h2 id={`${name}-title`}>Appearance</h2>
      <fieldset className="field theme-choice">
        <legend className="field-label">Theme</legend>
        <div className="segmented">
          {OPTIONS.map((option) => (
            <label key={option.value} className={choice === option.value ? 'picked' : undefined}>
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={choice === option.value}
                onChange={() => choose(option.value)}
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
    </section>
  );
}
