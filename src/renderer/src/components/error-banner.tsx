export function ErrorBanner(props: { message: string; onDismiss: () => void }): React.JSX.Element {
  return (
    <div className="error-banner" role="alert">
      <span>{props.message}</span>
      <button
        type="button"
        className="button ghost small"
        onClick={props.onDismiss}
        aria-label="Dismiss"
      >
        ✕
      </button>
    </div>
  );
}
