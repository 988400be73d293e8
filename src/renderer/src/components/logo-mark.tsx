// The Tandem mark (resources/icon.svg): two linked rings, the person and the agent.
export function LogoMark({ size = 40 }: { size?: number }): React.JSX.Element {
  return (
    <svg
      width={size}
      height={size}
      viewBox="32 32 448 448"
      aria-hidden="true"
      className="logo-mark"
    >
      <rect x="32" y="32" width="448" height="448" rx="104" fill="#1f3a5f" />
      <g fill="none" strokeWidth="36">
        <circle cx="206" cy="256" r="92" stroke="#f4c95d" />
        <circle cx="306" cy="256" r="92" stroke="#8fd3c7" />
        <path d="M 229.8 167.1 A 92 92 0 0 1 276.5 196.9" stroke="#f4c95d" />
      </g>
    </svg>
  );
}
