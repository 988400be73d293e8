// How many terminal columns a plain string takes, for aligning tables and boxes. Its own module so
// that the command view and `tandem sessions` do not load the markdown renderer (marked) with it.

const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
const ZERO_WIDTH = /^\p{M}$/u;

/** Columns a plain string takes on a terminal (wide CJK and emoji count two, marks none). */
export function displayWidth(value: string): number {
  let width = 0;
  for (const char of value) {
    if (ZERO_WIDTH.test(char)) continue;
    width += WIDE.test(char) ? 2 : 1;
  }
  return width;
}
