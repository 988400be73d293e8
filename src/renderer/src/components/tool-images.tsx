// Images a tool returned (an MCP tool's image content), drawn in its trace card. Main sends only
// PNG, JPEG, GIF and WebP as checked base64 (never SVG, which can carry script); the type is
// checked again here, since the window draws it from a data: URL.
import { SHOWN_IMAGE_BASE64, SHOWN_IMAGE_TYPES, type ToolImage } from '../../../shared/tool-types';

export function ToolImages({
  images,
}: {
  images: readonly ToolImage[] | undefined;
}): React.JSX.Element | null {
  const shown = (images ?? []).filter(
    (image) =>
      (SHOWN_IMAGE_TYPES as readonly string[]).includes(image.mimeType) &&
      SHOWN_IMAGE_BASE64.test(image.data),
  );
  if (shown.length === 0) return null;
  return (
    <div className="tool-images">
      {shown.map((image, i) => (
        <img
          key={i}
          src={`data:${image.mimeType};base64,${image.data}`}
          alt={`Image ${i + 1} the tool returned (${image.mimeType})`}
        />
      ))}
    </div>
  );
}
